package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A rollback and an uninstall run the chart's hooks unless {@code disableHooks}, and each of their
 * operations takes at most their own {@code timeout}, else {@code spec.timeout}, as Flux reads
 * them.
 */
class ReleaseActionDefaultsTest {
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  @Test
  void absentActionsRunHooksWithinTheReleaseTimeout() {
    HelmReleaseSpec spec = spec("timeout: 3m");

    assertTrue(spec.effectiveRollback().runsHooks());
    assertTrue(spec.effectiveUninstall().runsHooks());
    Duration release = spec.effectiveTimeout();
    assertEquals(Duration.ofMinutes(3), spec.effectiveRollback().effectiveTimeout(release));
    assertEquals(Duration.ofMinutes(3), spec.effectiveUninstall().effectiveTimeout(release));
  }

  @Test
  void eachActionsOwnTimeoutAndDisableHooksWin() {
    HelmReleaseSpec spec =
        spec(
            """
            timeout: 3m
            rollback: {timeout: 42s, disableHooks: true}
            uninstall: {timeout: 1h, disableHooks: false}
            """);

    assertFalse(spec.effectiveRollback().runsHooks());
    assertTrue(spec.effectiveUninstall().runsHooks());
    Duration release = spec.effectiveTimeout();
    assertEquals(Duration.ofSeconds(42), spec.effectiveRollback().effectiveTimeout(release));
    assertEquals(Duration.ofHours(1), spec.effectiveUninstall().effectiveTimeout(release));
  }

  @Test
  void anEmptyTimeoutIsTheReleaseTimeout() {
    HelmReleaseSpec spec = spec("rollback: {timeout: \"\"}\nuninstall: {timeout: \"\"}");

    assertEquals(
        Duration.ofMinutes(5), spec.effectiveRollback().effectiveTimeout(Duration.ofMinutes(5)));
    assertEquals(
        Duration.ofMinutes(5), spec.effectiveUninstall().effectiveTimeout(Duration.ofMinutes(5)));
  }

  private HelmReleaseSpec spec(String fields) {
    String yaml =
        """
        apiVersion: helm.capstan.dev/v2
        kind: HelmRelease
        metadata: {name: podinfo, namespace: apps}
        spec:
          interval: 1m
          chartRef: {kind: OCIRepository, name: podinfo}
        """
            + fields.indent(2);
    return serialization.unmarshal(yaml, HelmRelease.class).getSpec();
  }
}
