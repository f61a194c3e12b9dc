package dev.capstan.cli.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.AuditLog;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriterAuditTest {
  private static final String NS = "faults-x1";
  private static final String AGENT = FaultEngines.AGENT_PREFIX;
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void aHandOverWithoutOverlapCountsNone() throws Exception {
    WriterAudit.Writes writes = WriterAudit.read(fixture("handover.jsonl"), NS, AGENT, START);

    assertEquals(3, writes.count(), writes::toString);
    assertEquals(List.of("faults-0", "faults-1"), writes.writers());
    assertEquals(0, writes.overlapping());
    assertNull(writes.firstOverlap());
  }

  @Test
  void anOldLeadersWriteAfterTheNewLeadersIsCounted() throws Exception {
    WriterAudit.Writes writes = WriterAudit.read(fixture("overlap.jsonl"), NS, AGENT, START);

    assertEquals(1, writes.overlapping(), writes::toString);
    assertTrue(
        writes.firstOverlap().startsWith("faults-0 patch configmaps/k1-a at 2026-12-01T10:00:09"),
        writes.firstOverlap());
  }

  @Test
  void failedWritesOtherNamespacesOtherAgentsAndEarlierWritesAreLeftOut() throws Exception {
    WriterAudit.Writes writes = WriterAudit.read(fixture("ignored.jsonl"), NS, AGENT, START);

    assertEquals(1, writes.count(), writes::toString);
    assertEquals(List.of("faults-1"), writes.writers());
    assertEquals(0, writes.overlapping());
  }

  private static AuditLog.Mark fixture(String name) throws Exception {
    return AuditLog.Mark.start(
        Path.of(WriterAuditTest.class.getResource("/audit/" + name).toURI()));
  }
}
