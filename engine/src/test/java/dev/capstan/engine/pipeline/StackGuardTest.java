package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

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
