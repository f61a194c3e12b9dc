package dev.capstan.cli.objects;

import dev.capstan.api.common.Snapshot;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A Kustomization's {@code status.history} as the commands print it. */
final class HistoryText {
  private static final int DIGEST_SHOWN = "sha256:".length() + 12;

  private HistoryText() {}

  /** One column's worth: each entry's outcome and count, most recent first. */
  static String summary(List<Snapshot> history) {
    return history == null
        ? ""
        : history.stream()
            .map(s -> orUnknown(s.lastReconciledStatus()) + "×" + count(s))
            .collect(Collectors.joining(","));
  }

  /**
   * One entry on a line: outcome and count, revision (and origin revision), the applied set's
   * digest (shortened), first and last time, and how long the last reconcile took.
   */
  static String line(Snapshot s) {
    Map<String, String> metadata = s.metadata() == null ? Map.of() : s.metadata();
    String origin = metadata.get("originRevision");
    String digest = s.digest() == null ? "" : s.digest();
    return orUnknown(s.lastReconciledStatus())
        + " ×"
        + count(s)
        + "  "
        + metadata.getOrDefault("revision", "(no revision)")
        + (origin == null ? "" : " (origin " + origin + ")")
        + "  "
        + (digest.length() > DIGEST_SHOWN ? digest.substring(0, DIGEST_SHOWN) + "…" : digest)
        + "  first "
        + orUnknown(s.firstReconciled())
        + "  last "
        + orUnknown(s.lastReconciled())
        + (s.lastReconciledDuration() == null ? "" : " (took " + s.lastReconciledDuration() + ")");
  }

  private static long count(Snapshot s) {
    return s.totalReconciliations() == null ? 0 : s.totalReconciliations();
  }

  private static String orUnknown(String value) {
    return value == null || value.isEmpty() ? "?" : value;
  }
}
