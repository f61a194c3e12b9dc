package dev.capstan.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
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
   * Where a log ended at a moment: a read from it takes only what was written since, not the whole
   * log (which grows to 512 MB before it rotates).
   */
  public record Mark(Path log, long offset, Object fileKey) {
    /** The start of {@code log}, whichever file it is when read. */
    public static Mark start(Path log) {
      return new Mark(log, 0, null);
    }

    /** The log's end now (its start when it does not exist yet). */
    public static Mark now(Path log) throws IOException {
      if (!Files.exists(log)) {
        return start(log);
      }
      return new Mark(log, Files.size(log), fileKeyOf(log));
    }

    /** Whether the log is another file than at the mark, or shorter: it rotated since. */
    boolean rotated() throws IOException {
      if (offset == 0) {
        return false;
      }
      if (!Files.exists(log)) {
        return true;
      }
      Object key = fileKeyOf(log);
      return (fileKey != null && !fileKey.equals(key)) || Files.size(log) < offset;
    }

    private static Object fileKeyOf(Path log) throws IOException {
      return Files.readAttributes(log, BasicFileAttributes.class).fileKey();
    }
  }

  /**
   * The writes that {@code log} records in {@code namespace} by user agents {@code
   * agentPrefix}NAME, completed at or after {@code from}, in the order they completed. The log is
   * streamed; a line cut short or not an event is skipped.
   */
  public static List<Write> writes(Path log, String namespace, String agentPrefix, Instant from)
      throws IOException {
    return writes(Mark.start(log), namespace, agentPrefix, from);
  }

  /**
   * As {@link #writes(Path, String, String, Instant)}, of what the log gained after {@code mark}.
   * When the log rotated since (another file, or shorter than the mark), the newest rotated file
   * ({@code NAME-TIME.EXT} beside it) is read from the mark, then the new log from its start.
   */
  public static List<Write> writes(Mark mark, String namespace, String agentPrefix, Instant from)
      throws IOException {
    List<Write> writes = new ArrayList<>();
    if (mark.rotated()) {
      Optional<Path> rotated = newestRotated(mark.log());
      if (rotated.isPresent()) {
        writes.addAll(read(rotated.get(), mark.offset(), namespace, agentPrefix, from));
      }
      writes.addAll(read(mark.log(), 0, namespace, agentPrefix, from));
    } else {
      writes.addAll(read(mark.log(), mark.offset(), namespace, agentPrefix, from));
    }
    writes.sort(Comparator.comparing(Write::at));
    return writes;
  }

  private static List<Write> read(
      Path log, long offset, String namespace, String agentPrefix, Instant from)
      throws IOException {
    if (!Files.exists(log)) {
      return List.of();
    }
    try (FileChannel channel = FileChannel.open(log, StandardOpenOption.READ)) {
      channel.position(Math.min(offset, channel.size()));
      // Latin-1 reads any byte: a character cut in two by a flush in progress cannot fail the read.
      BufferedReader reader =
          new BufferedReader(Channels.newReader(channel, StandardCharsets.ISO_8859_1));
      try (Stream<String> lines = reader.lines()) {
        return writes(lines, namespace, agentPrefix, from);
      }
    }
  }

  /** The log's newest rotated file: {@code audit-2026-12-01T22-42-00.000.log} for audit.log. */
  private static Optional<Path> newestRotated(Path log) throws IOException {
    String name = log.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String stem = dot < 0 ? name : name.substring(0, dot);
    String ext = dot < 0 ? "" : name.substring(dot);
    Path dir = log.toAbsolutePath().getParent();
    try (Stream<Path> siblings = Files.list(dir)) {
      return siblings
          .filter(p -> !p.equals(log.toAbsolutePath()))
          .filter(
              p -> {
                String n = p.getFileName().toString();
                return n.startsWith(stem + "-") && n.endsWith(ext);
              })
          .max(Comparator.comparing(p -> p.getFileName().toString()));
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
