package dev.capstan.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditLogTest {
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  @TempDir Path dir;

  @Test
  void aReadFromAMarkTakesOnlyWhatTheLogGainedAfterIt() throws Exception {
    Path log = dir.resolve("audit.log");
    append(log, event("faults-0", "k1", "10:00:01"));
    AuditLog.Mark mark = AuditLog.Mark.now(log);
    append(
        log,
        event("faults-1", "k2", "10:00:02"),
        "not an event",
        event("faults-1", "k3", "10:00:03"));

    assertEquals(List.of("k2", "k3"), names(AuditLog.writes(mark, "ns", "capstan-faults/", START)));
    assertEquals(
        List.of("k1", "k2", "k3"), names(AuditLog.writes(log, "ns", "capstan-faults/", START)));
  }

  @Test
  void aLogThatRotatedAfterTheMarkIsReadFromTheRotatedFileOnward() throws Exception {
    Path log = dir.resolve("audit.log");
    append(log, event("faults-0", "k1", "10:00:01"));
    AuditLog.Mark mark = AuditLog.Mark.now(log);
    append(log, event("faults-0", "k2", "10:00:02"));
    Files.move(log, dir.resolve("audit-2026-12-01T10-00-02.500.log"));
    Files.writeString(dir.resolve("audit-2026-11-30T09-00-00.000.log"), event("x", "old", "09:00"));
    append(log, event("faults-1", "k3", "10:00:03"));

    assertEquals(List.of("k2", "k3"), names(AuditLog.writes(mark, "ns", "capstan-faults/", START)));
  }

  @Test
  void aMarkOfALogNotYetWrittenReadsItAll() throws Exception {
    Path log = dir.resolve("audit.log");
    AuditLog.Mark mark = AuditLog.Mark.now(log);
    append(log, event("faults-0", "k1", "10:00:01"));

    assertEquals(List.of("k1"), names(AuditLog.writes(mark, "ns", "capstan-faults/", START)));
  }

  private static List<String> names(List<AuditLog.Write> writes) {
    return writes.stream().map(AuditLog.Write::name).toList();
  }

  private static void append(Path log, String... lines) throws Exception {
    Files.writeString(
        log,
        String.join("\n", lines) + "\n",
        StandardCharsets.ISO_8859_1,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  private static String event(String engine, String name, String time) {
    return "{\"stage\":\"ResponseComplete\",\"verb\":\"patch\",\"userAgent\":\"capstan-faults/"
        + engine
        + "\",\"objectRef\":{\"resource\":\"configmaps\",\"namespace\":\"ns\",\"name\":\""
        + name
        + "\"},\"responseStatus\":{\"code\":200},\"stageTimestamp\":\"2026-12-01T"
        + time
        + ".000000Z\"}";
  }
}
