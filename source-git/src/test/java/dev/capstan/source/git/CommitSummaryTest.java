package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CommitSummaryTest {

  @Test
  void keepsTheFirstLineOfTheMessage() {
    var s =
        new CommitSummary(
            "a".repeat(40), "Ann", "ann@example.invalid", Instant.EPOCH, "\n Fix it\n\nbecause");
    assertEquals("Fix it", s.subject());
  }

  @Test
  void cutsLongTextAndMarksTheCut() {
    var s = new CommitSummary("a".repeat(40), "n".repeat(500), "e", null, "x".repeat(10_000));
    assertEquals(CommitSummary.MAX_SUBJECT + 1, s.subject().length());
    assertTrue(s.subject().endsWith("…"));
    assertEquals(CommitSummary.MAX_NAME + 1, s.author().length());
  }

  @Test
  void replacesControlAndDirectionCharacters() {
    var s =
        new CommitSummary(
            "a".repeat(40), "Eve\u001b[31m", "", null, "ok\u202Egnp.exe\u0007 done\r");
    assertEquals("Eve [31m", s.author());
    assertEquals("ok gnp.exe  done", s.subject());
  }

  @Test
  void missingPartsAreEmpty() {
    var s = new CommitSummary("a".repeat(40), null, null, null, null);
    assertEquals("", s.author());
    assertEquals("", s.subject());
  }
}
