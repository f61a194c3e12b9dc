package dev.capstan.source.helm;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.ScalarEvent;

/**
 * Reads a Helm repository's index.yaml as a stream of parser events, keeping of each chart version
 * only what {@link ChartVersion} holds: the document is never a tree in memory, so a large index
 * costs its kept entries, not its size. Checked as Helm loads an index: {@code apiVersion} must be
 * v1 and {@code entries} a mapping of chart names to lists of versions; a version without a
 * semantic version is left out, as Helm leaves it out. The bounds of {@link IndexLimits} are
 * checked as the events come, each refusal naming its bound.
 */
final class IndexParser {
  private final IndexLimits limits;
  private final LoadSettings settings;

  IndexParser(IndexLimits limits) {
    this.limits = limits;
    this.settings =
        LoadSettings.builder()
            .setCodePointLimit((int) Math.min(Integer.MAX_VALUE, limits.maxBytes()))
            .setAllowDuplicateKeys(true)
            .build();
  }

  /**
   * The entries of the index in {@code in}, of the charts {@code wanted} names, each chart's
   * versions highest first.
   *
   * @throws dev.capstan.source.core.SourceException {@code IndexationFailed} naming what is wrong
   *     and where
   */
  ParsedIndex parse(InputStream in, Predicate<String> wanted) {
    EventCursor cursor =
        new EventCursor(new Parse(settings).parseInputStream(in).iterator(), limits.maxDepth());
    cursor.expect(Event.ID.StreamStart, "the index is empty");
    if (cursor.next().getEventId() != Event.ID.DocumentStart) {
      throw cursor.problem("the index is empty");
    }
    cursor.expect(Event.ID.MappingStart, "the index is not a mapping of apiVersion and entries");
    String apiVersion = null;
    Map<String, List<ChartVersion>> entries = null;
    for (Event key = cursor.next(); key.getEventId() != Event.ID.MappingEnd; key = cursor.next()) {
      switch (cursor.scalar(key, "a key of the index")) {
        case "apiVersion" -> apiVersion = cursor.scalar(cursor.next(), "apiVersion");
        case "entries" -> entries = entries(cursor, wanted);
        default -> cursor.skip(cursor.next());
      }
    }
    if (apiVersion == null || apiVersion.isEmpty()) {
      throw cursor.problem("no apiVersion; an index has apiVersion: v1");
    }
    if (!apiVersion.equals("v1")) {
      throw cursor.problem("apiVersion is not v1");
    }
    if (entries == null) {
      throw cursor.problem("no entries; an index lists its charts under entries");
    }
    return ParsedIndex.sorted(entries);
  }

  private Map<String, List<ChartVersion>> entries(EventCursor cursor, Predicate<String> wanted) {
    Map<String, List<ChartVersion>> entries = new TreeMap<>();
    Event start = cursor.next();
    if (isNull(start)) {
      return entries;
    }
    if (start.getEventId() != Event.ID.MappingStart) {
      throw cursor.problem("entries is not a mapping of chart names to versions");
    }
    int count = 0;
    for (Event key = cursor.next(); key.getEventId() != Event.ID.MappingEnd; key = cursor.next()) {
      String chart = bounded(cursor, cursor.scalar(key, "a chart name"), "a chart name");
      Event versions = cursor.next();
      if (!wanted.test(chart) || isNull(versions)) {
        cursor.skip(versions);
        continue;
      }
      if (versions.getEventId() != Event.ID.SequenceStart) {
        throw cursor.problem("entries." + chart + " is not a list of versions");
      }
      List<ChartVersion> list = entries.computeIfAbsent(chart, c -> new ArrayList<>());
      for (Event item = cursor.next();
          item.getEventId() != Event.ID.SequenceEnd;
          item = cursor.next()) {
        if (++count > limits.maxEntries()) {
          throw cursor.problem(
              "more than " + limits.maxEntries() + " chart versions (the bound of entries)");
        }
        if (isNull(item)) {
          continue;
        }
        if (item.getEventId() != Event.ID.MappingStart) {
          throw cursor.problem("a version of entries." + chart + " is not a mapping");
        }
        version(cursor, chart).filter(ParsedIndex::hasSemver).ifPresent(list::add);
      }
    }
    return entries;
  }

  private Optional<ChartVersion> version(EventCursor cursor, String chart) {
    String where = "entries." + chart;
    String version = null;
    String appVersion = null;
    String created = null;
    String digest = null;
    List<String> urls = new ArrayList<>();
    for (Event key = cursor.next(); key.getEventId() != Event.ID.MappingEnd; key = cursor.next()) {
      String field = cursor.scalar(key, "a key of " + where);
      switch (field) {
        case "version" -> version = value(cursor, where + ".version");
        case "appVersion" -> appVersion = value(cursor, where + ".appVersion");
        case "created" -> created = value(cursor, where + ".created");
        case "digest" -> digest = value(cursor, where + ".digest");
        case "urls" -> urls(cursor, where + ".urls", urls);
        default -> cursor.skip(cursor.next());
      }
    }
    if (version == null || version.isEmpty()) {
      return Optional.empty();
    }
    // Helm files a version under its key, whatever name the version itself writes.
    return Optional.of(new ChartVersion(chart, version, appVersion, created, digest, urls));
  }

  private void urls(EventCursor cursor, String where, List<String> urls) {
    Event start = cursor.next();
    if (isNull(start)) {
      return;
    }
    if (start.getEventId() != Event.ID.SequenceStart) {
      throw cursor.problem(where + " is not a list");
    }
    for (Event item = cursor.next();
        item.getEventId() != Event.ID.SequenceEnd;
        item = cursor.next()) {
      if (urls.size() == limits.maxUrls()) {
        throw cursor.problem(where + " has more than " + limits.maxUrls() + " URLs");
      }
      urls.add(bounded(cursor, cursor.scalar(item, where), where));
    }
  }

  /** A scalar value; null for YAML's null. */
  private String value(EventCursor cursor, String where) {
    Event event = cursor.next();
    return isNull(event) ? null : bounded(cursor, cursor.scalar(event, where), where);
  }

  private String bounded(EventCursor cursor, String value, String where) {
    if (value.length() > limits.maxValueLength()) {
      throw cursor.problem(where + " is longer than " + limits.maxValueLength() + " characters");
    }
    return value;
  }

  /** A plain null, ~ or empty scalar: YAML's null, which Helm reads as nothing. */
  private static boolean isNull(Event event) {
    return event instanceof ScalarEvent scalar
        && scalar.isPlain()
        && (scalar.getValue().isEmpty()
            || scalar.getValue().equals("~")
            || scalar.getValue().equals("null"));
  }
}
