package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * The parser's events of one index, one at a time, with the nesting depth counted as they come: a
 * document nested past the bound is refused at the event that passes it, before the parser holds
 * any more of it. Problems name a line and column and never quote the input.
 */
final class EventCursor {
  private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"");

  private final Iterator<Event> events;
  private final int maxDepth;
  private int depth;
  private Event last;

  EventCursor(Iterator<Event> events, int maxDepth) {
    this.events = events;
    this.maxDepth = maxDepth;
  }

  Event next() {
    try {
      last = events.next();
    } catch (NoSuchElementException e) {
      throw problem("the index ends early");
    } catch (YamlEngineException e) {
      throw notYaml(e);
    }
    switch (last.getEventId()) {
      case MappingStart, SequenceStart -> {
        if (++depth > maxDepth) {
          throw problem("the index nests deeper than " + maxDepth + " levels");
        }
      }
      case MappingEnd, SequenceEnd -> depth--;
      default -> {}
    }
    return last;
  }

  /** The next event, which must be of {@code id}; {@code what} names it in the problem. */
  Event expect(Event.ID id, String what) {
    Event event = next();
    if (event.getEventId() != id) {
      throw problem(what);
    }
    return event;
  }

  /** The value of a scalar event, refusing any other; {@code field} names where it is. */
  String scalar(Event event, String field) {
    if (event instanceof ScalarEvent scalar) {
      return scalar.getValue();
    }
    if (event.getEventId() == Event.ID.Alias) {
      throw problem(field + " is an alias; an index has none");
    }
    throw problem(field + " is not a single value");
  }

  /** Skips the value that {@code first} starts: a scalar, an alias or a whole collection. */
  void skip(Event first) {
    if (first.getEventId() != Event.ID.MappingStart
        && first.getEventId() != Event.ID.SequenceStart) {
      return;
    }
    int until = depth - 1;
    while (depth > until) {
      next();
    }
  }

  /** A problem at the last event read. */
  SourceException problem(String what) {
    Optional<Mark> mark = last == null ? Optional.empty() : last.getStartMark();
    return new SourceException(
        FailureReason.INDEXATION_FAILED,
        "index.yaml: " + what + mark.map(EventCursor::place).orElse(""));
  }

  private SourceException notYaml(YamlEngineException e) {
    if (e.getCause() instanceof IOException read) {
      return new SourceException(
          FailureReason.INDEX_FETCH_FAILED,
          "reading index.yaml failed: " + read.getClass().getSimpleName(),
          read);
    }
    if (e instanceof MarkedYamlEngineException marked) {
      String problem =
          marked.getProblem() == null
              ? ""
              : ": " + QUOTED.matcher(marked.getProblem()).replaceAll("a character");
      return new SourceException(
          FailureReason.INDEXATION_FAILED,
          "index.yaml is not YAML"
              + problem
              + marked.getProblemMark().map(EventCursor::place).orElse(""));
    }
    // The code point limit and other failures without a place: their text names no input.
    return new SourceException(
        FailureReason.INDEXATION_FAILED, "index.yaml is not YAML: " + e.getMessage());
  }

  private static String place(Mark mark) {
    return " (line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1) + ")";
  }
}
