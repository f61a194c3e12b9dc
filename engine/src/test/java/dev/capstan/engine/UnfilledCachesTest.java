package dev.capstan.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class UnfilledCachesTest {

  @Test
  void everyCacheFilledIsNoProblem() {
    assertEquals(Optional.empty(), UnfilledCaches.message(new TreeSet<>(), Duration.ofMinutes(2)));
  }

  @Test
  void theKindsAreNamedInOrderWithTheTimeout() {
    assertEquals(
        Optional.of(
            "the engine could not list and watch HelmChart, Kustomization in 120s of trying (is"
                + " each CRD installed, and may the engine's account list and watch it? the"
                + " engine's log has the API server's answers)"),
        UnfilledCaches.message(
            new TreeSet<>(List.of("Kustomization", "HelmChart")), Duration.ofMinutes(2)));
  }
}
