package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.conditions.Reason;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackGuardTest {
  /** Walks a self-containing map the way a naive reader walks nested input: it never ends. */
  private static int depth(Object node) {
    return node instanceof Map<?, ?> map ? 1 + depth(map.get("nested")) : 0;
  }

  @Test
  void aStageThatRunsOutOfStackEndsAsATerminalBuildFailureNamingNoInput() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () -> {
          Map<String, Object> hostile = new HashMap<>();
          hostile.put("nested", hostile);
          hostile.put("secret", "do-not-echo");
          StageFailure failure =
              assertThrows(
                  StageFailure.class,
                  () ->
                      StackGuard.run(Reason.BUILD_FAILED, "the build input", () -> depth(hostile)));
          Phase.Failed failed = (Phase.Failed) failure.phase();
          assertEquals(Reason.BUILD_FAILED, failed.reason());
          assertEquals(true, failed.terminal());
          assertEquals("the build input nests too deeply to be processed", failed.message());
          assertFalse(failed.message().contains("do-not-echo"));
        });
  }

  @Test
  void aStageThatReturnsIsPassedThroughAndOtherFailuresAreNotMasked() {
    assertEquals(
        3,
        StackGuard.run(
            Reason.BUILD_FAILED,
            "x",
            () -> depth(Map.of("nested", Map.of("nested", Map.of("nested", List.of()))))));
    StageFailure own = StageFailure.transientFailure(Reason.APPLY_FAILED, "apply failed");
    assertEquals(
        own,
        assertThrows(
            StageFailure.class,
            () ->
                StackGuard.run(
                    Reason.BUILD_FAILED,
                    "x",
                    () -> {
                      throw own;
                    })));
  }

  @Test
  void orElseAnswersInsteadOfRunningOutOfStackAndPassesAnythingElseThrough() {
    Map<String, Object> hostile = new HashMap<>();
    hostile.put("nested", hostile);

    assertEquals(
        -1,
        assertTimeoutPreemptively(
            Duration.ofSeconds(30), () -> StackGuard.orElse(() -> depth(hostile), () -> -1)));
    assertEquals(1, StackGuard.orElse(() -> depth(Map.of("nested", List.of())), () -> -1));
    IllegalStateException other = new IllegalStateException("not a stack overflow");
    assertEquals(
        other,
        assertThrows(
            IllegalStateException.class,
            () ->
                StackGuard.orElse(
                    () -> {
                      throw other;
                    },
                    () -> -1)));
  }
}
