package dev.capstan.source.core.ignore;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.SourceException;
import java.util.List;
import java.util.Optional;

/** The rules of one ignore file (or of {@code spec.ignore}), in gitignore syntax; immutable. */
record IgnoreFile(List<IgnorePattern> patterns) {

  /** What a file's rules say of a path. */
  enum Decision {
    IGNORED,
    KEPT,
    /** No rule matches: the rules with lower precedence decide. */
    UNDECIDED
  }

  /** Parses the text (lines end with LF, CRLF or CR; rules that can never match are dropped). */
  static IgnoreFile parse(String text) {
    return new IgnoreFile(
        text.lines().map(IgnorePattern::parse).flatMap(Optional::stream).toList());
  }

  /**
   * What the last rule that matches the path made of {@code segments[from..]} says.
   *
   * @throws SourceException once the deadline has passed
   */
  Decision decide(String[] segments, int from, boolean isDirectory, Deadline deadline) {
    for (int i = patterns.size() - 1; i >= 0; i--) {
      if (i % 256 == 0) {
        deadline.check(); // a pattern checks it only when it gets to its segments
      }
      IgnorePattern pattern = patterns.get(i);
      if (pattern.matches(segments, from, isDirectory, deadline)) {
        return pattern.negated() ? Decision.KEPT : Decision.IGNORED;
      }
    }
    return Decision.UNDECIDED;
  }
}
