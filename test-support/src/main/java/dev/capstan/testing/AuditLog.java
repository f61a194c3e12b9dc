package dev.capstan.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The engines' writes as the local control plane's audit log records them ({@code
 * deploy/testcluster/up} with {@code CAPSTAN_AUDIT_LOG}: one JSON event a line, level Metadata):
 * the completed, successful writes in one namespace by the clients whose user agent starts with a
 * prefix, each engine named by the rest of its user agent.
 */
public final class AuditLog {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AuditLog() {}

  /** One write: which engine, the verb, the object, and when the API server completed it. */
  public record Write(String writer, String verb, String resource, String name, Instant at) {
    @Override
    public String toString() {
      return writer + " " + verb + " " + resource + "/" + name + " at " + at;
    }
  }

  /**
   * The writes that {@code log} records in {@code namespace} by user agents {@code
   * agentPrefix}NAME, completed at or after {@code from}, in the order they completed. The log is
   * streamed (it grows to 512 MB before it rotates); a line cut short or not an event is skipped.
   */
  public static List<Write> writes(Path log, String namespace, String agentPrefix, Instant from)
      throws IOException {
    // Latin-1 reads any byte: a character cut in two by a flush in progress cannot fail the read.
    try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
      return writes(lines, namespace, agentPrefix, from);
    }
  }

  /** As {@link #writes(Path, String, String, Instant)}, of the log's {@code lines}. */
  public static List<Write> writes(
      Stream<String> lines, String namespace, String agentPrefix, Instant from) {
    List<Write> writes = new ArrayList<>();
    lines
        .filter(line -> line.contains(agentPrefix) && line.contains(namespace))
        .map(line -> write(line, namespace, agentPrefix))
        .filter(write -> write != null && !write.at().isBefore(from))
        .forEach(writes::add);
    writes.sort(Comparator.comparing(Write::at));
    return writes;
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
    Instant at;
    try {
      at = Instant.parse(event.path("stageTimestamp").asText());
    } catch (DateTimeParseException e) {
      return null;
    }
    return new Write(
        agent.substring(agentPrefix.length()).split("[ /]", 2)[0],
        event.path("verb").asText(),
        object.path("resource").asText(),
        object.path("name").asText(),
        at);
  }
}
