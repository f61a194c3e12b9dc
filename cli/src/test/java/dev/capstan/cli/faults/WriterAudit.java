package dev.capstan.cli.faults;

import dev.capstan.testing.AuditLog;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts, among the engines' writes in one namespace that the API server's audit log records
 * ({@link AuditLog}), those that overlap another engine's: a write by an engine after an engine
 * that began writing later has already written. One writer at a time hands over once and never
 * comes back.
 */
final class WriterAudit {
  private WriterAudit() {}

  /**
   * @param count the engines' writes in the namespace since the start
   * @param writers the engines that wrote, in the order of their first write
   * @param overlapping the writes that came after a later writer's
   * @param firstOverlap the first of those, or null
   */
  record Writes(int count, List<String> writers, int overlapping, String firstOverlap) {
    @Override
    public String toString() {
      return String.format(
          "%d writes by %s (audit log), %d after another engine's%s",
          count,
          writers.isEmpty() ? "no engine" : String.join(" then ", writers),
          overlapping,
          firstOverlap == null ? "" : ", the first: " + firstOverlap);
    }
  }

  /**
   * The writes in {@code namespace} by user agents {@code agentPrefix}NAME, completed at or after
   * {@code from}, as the audit log records them after {@code mark}.
   */
  static Writes read(AuditLog.Mark mark, String namespace, String agentPrefix, Instant from)
      throws IOException {
    return of(AuditLog.writes(mark, namespace, agentPrefix, from));
  }

  /** The writers of {@code writes}, in the order they completed, and how many overlapped. */
  static Writes of(List<AuditLog.Write> writes) {
    Map<String, Integer> order = new LinkedHashMap<>();
    int latest = -1;
    int overlapping = 0;
    String first = null;
    for (AuditLog.Write write : writes) {
      int rank = order.computeIfAbsent(write.writer(), w -> order.size());
      if (rank < latest) {
        overlapping++;
        first = first == null ? write.toString() : first;
      }
      latest = Math.max(latest, rank);
    }
    return new Writes(writes.size(), List.copyOf(order.keySet()), overlapping, first);
  }
}
