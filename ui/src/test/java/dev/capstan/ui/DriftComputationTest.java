package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.diff.DiffReport;
import dev.capstan.applier.diff.ObjectDiff;
import dev.capstan.applier.diff.ObjectDiff.Change;
import dev.capstan.kube.ObjectRef;
import dev.capstan.source.git.CommitSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class DriftComputationTest {
  private static ObjectDiff diff(String name, Change change, String text) {
    return new ObjectDiff(new ObjectRef("", "v1", "ConfigMap", "ns", name), change, text);
  }

  private static Drift answer(List<ObjectDiff> diffs, UnaryOperator<String> redaction) {
    return DriftComputation.answer(
        "main@sha1:abc", "from", null, new DiffReport(diffs), redaction, "now");
  }

  @Test
  void listsWhatDiffersAndCountsTheRest() {
    Drift d =
        answer(
            List.of(
                diff("a", Change.UNCHANGED, ""),
                diff("b", Change.CHANGED, "-x\n+y\n"),
                diff("c", Change.CREATED, "+z\n"),
                diff("d", Change.FAILED, "refused: value hunter22")),
            t -> t.replace("hunter22", "***"));
    assertEquals(Drift.State.DONE, d.state());
    assertEquals(
        List.of("ConfigMap/ns/b", "ConfigMap/ns/c", "ConfigMap/ns/d"),
        d.objects().stream().map(Drift.ObjectLine::ref).toList());
    assertEquals(4, d.compared());
    assertEquals(2, d.differing());
    assertEquals("2 of 4 objects differ from the revision; 1 could not be compared", d.message());
    assertEquals(
        "refused: value ***", d.objects().get(2).text(), "every text goes through the redaction");
  }

  @Test
  void noDifferenceIsSaid() {
    Drift d = answer(List.of(diff("a", Change.UNCHANGED, "")), UnaryOperator.identity());
    assertEquals("no drift: the cluster matches the revision", d.message());
    assertTrue(d.objects().isEmpty());
  }

  @Test
  void boundsTheTextOfOneObjectAndOfTheAnswer() {
    List<ObjectDiff> diffs = new ArrayList<>();
    for (int i = 0; i < DriftComputation.MAX_LISTED + 50; i++) {
      diffs.add(diff("o" + i, Change.CHANGED, "+".repeat(DriftComputation.MAX_TEXT * 2)));
    }
    Drift d = answer(diffs, UnaryOperator.identity());
    assertEquals(DriftComputation.MAX_LISTED, d.objects().size());
    assertTrue(
        d.message().endsWith("(the first " + DriftComputation.MAX_LISTED + " are listed)"),
        d.message());
    assertTrue(d.objects().get(0).text().endsWith("… (cut: the diff is longer)\n"));
    int total = d.objects().stream().mapToInt(o -> o.text().length()).sum();
    assertTrue(
        total < DriftComputation.MAX_TOTAL_TEXT + 2 * DriftComputation.MAX_TEXT, "total " + total);
    assertTrue(d.objects().get(DriftComputation.MAX_LISTED - 1).text().startsWith("(not shown"));
  }

  @Test
  void theCommitIsShownAsBoundedText() {
    Drift.Commit c =
        DriftComputation.commit(
            new CommitSummary(
                "a".repeat(40),
                "Ann",
                "ann@example.invalid",
                Instant.parse("2026-01-02T03:04:05Z"),
                "Fix <script>\nbody"));
    assertEquals(
        new Drift.Commit(
            "a".repeat(40), "Ann <ann@example.invalid>", "2026-01-02T03:04:05Z", "Fix <script>"),
        c);
  }
}
