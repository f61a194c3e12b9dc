package dev.capstan.applier.prune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.common.Owner;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PruneDecisionTest {

  @Test
  void pruneKeepsDisabledAndForeignObjects() {
    Owner owner = new Owner("app", "flux-system");
    assertTrue(PruneDecision.keepReason(owner.labels(), null, owner).isEmpty());
    assertTrue(
        PruneDecision.keepReason(owner.labels(), Map.of("capstan.dev/prune", "disabled"), owner)
            .orElseThrow()
            .contains("capstan.dev/prune: disabled"));
    var foreign = new Owner("other", "flux-system").labels();
    assertEquals(
        "kept: owned by Kustomization flux-system/other, not flux-system/app",
        PruneDecision.keepReason(foreign, Map.of(), owner).orElseThrow());
    assertTrue(PruneDecision.keepReason(null, null, owner).isPresent());
  }

  @Test
  void aHelmReleasesObjectsAreNamedByItsOwnLabelsAndKeptFromAKustomizationOfTheSameName() {
    Owner release = Owner.helmRelease("app", "apps");
    assertEquals(
        Map.of("helm.capstan.dev/name", "app", "helm.capstan.dev/namespace", "apps"),
        release.labels());
    assertTrue(PruneDecision.keepReason(release.labels(), null, release).isEmpty());
    Owner kustomization = new Owner("app", "apps");
    assertTrue(PruneDecision.keepReason(release.labels(), null, kustomization).isPresent());
    assertEquals(
        "kept: owned by HelmRelease apps/other, not apps/app",
        PruneDecision.keepReason(Owner.helmRelease("other", "apps").labels(), null, release)
            .orElseThrow());
  }
}
