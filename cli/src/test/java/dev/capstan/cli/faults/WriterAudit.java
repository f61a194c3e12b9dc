package dev.capstan.cli.faults;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the API server's audit log (one JSON event a line, written by {@code deploy/testcluster/up}
 * with {@code CAPSTAN_AUDIT_LOG}) for the engines' successful writes in one namespace, told apart
 * by their user agents, and counts the writes that overlap another engine's: a write by an engine
 * after an engine that began writing later has already written. One writer at a time hands over
 * once and never comes back.
 */
final class WriterAudit {
  private static final ObjectMapper JSON = new ObjectMapper();

  private WriterAudit() {}

  /**
   * @param count the engines' writes in the namespace since the start
   * @param writers the engines that wrote, in the order of their first write
   * @param overlapping the writes that came after a later writer's
   * @param firstOverlap the first of those ("WRITER VERB RESOURCE/NAME at TIME"), or null
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
   * The engines' writes in {@code namespace} whose user agent starts with {@code agentPrefix},
   * completed at or after {@code from}, as {@code lines} of an audit log record them.
   */
  static Writes read(List<String> lines, String namespace, String agentPrefix, Instant from) {
    List<Write> writes = new ArrayList<>();
    for (String line : lines) {
      if (line.contains(agentPrefix) && line.contains(namespace)) {
        Write write = write(line, namespace, agentPrefix);
        if (write != null && !write.at().isBefore(from)) {
          writes.add(write);
        }
      }
    }
    writes.sort((a, b) -> a.at().compareTo(b.at()));
    Map<String, Integer> order = new LinkedHashMap<>();
    int latest = -1;
    int overlapping = 0;
    String first = null;
    for (Write write : writes) {
      int rank = order.computeIfAbsent(write.writer(), w -> order.size());
      if (rank < latest) {
        overlapping++;
        first = first == null ? write.toString() : first;
      }
      latest = Math.max(latest, rank);
    }
    return new Writes(writes.size(), List.copyOf(order.keySet()), overlapping, first);
  }

  private record Write(String writer, String what, Instant at) {
    @Override
    public String toString() {
      return writer + " " + what + " at " + at;
    }
  }

  /** The line's write, if it is a completed, successful one by an engine in the namespace. */
  private static Write write(String line, String namespace, String agentPrefix) {
    JsonNode event;
    try {
      event = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      return null; // a line cut short by a rotation or a flush in progress
    }
    String agent = event.path("userAgent").asText("");
    JsonNode object = event.path("objectRef");
    int code = event.path("responseStatus").path("code").asInt(0);
    if (!"ResponseComplete".equals(event.path("stage").asText())
        || !agent.startsWith(agentPrefix)
        || !namespace.equals(object.path("namespace").asText())
        || code < 200
        || code >= 300) {
      return null;
    }
    String writer = agent.substring(agentPrefix.length()).split("[ /]", 2)[0];
    String what =
        event.path("verb").asText()
            + " "
            + object.path("resource").asText()
            + "/"
            + object.path("name").asText();
    return new Write(writer, what, Instant.parse(event.path("stageTimestamp").asText()));
  }
}
