package dev.capstan.applier.prune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.common.Owner;
import java.util.HashMap;
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

  @Test
  void aHelmReleaseKeepsWhatHelmsResourcePolicyKeeps() {
    Owner release = Owner.helmRelease("app", "apps");
    assertEquals(
        "kept: annotated helm.sh/resource-policy: keep",
        PruneDecision.keepReason(
                release.labels(), Map.of("helm.sh/resource-policy", " Keep "), release)
            .orElseThrow());
    assertTrue(
        PruneDecision.keepReason(
                release.labels(), Map.of("helm.sh/resource-policy", "delete"), release)
            .isEmpty());
    Owner kustomization = new Owner("app", "apps");
    assertTrue(
        PruneDecision.keepReason(
                kustomization.labels(), Map.of("helm.sh/resource-policy", "keep"), kustomization)
            .isEmpty(),
        "a Kustomization's objects are not Helm's");
  }

  @Test
  void anAdoptedReleasesUnlabelledObjectsAreNamedByHelmsAnnotations() {
    Owner release = Owner.helmRelease("app", "apps", new Owner.HelmReleaseName("web", "prod"));
    Map<String, String> ours =
        Map.of("meta.helm.sh/release-name", "web", "meta.helm.sh/release-namespace", "prod");
    Map<String, String> helmLabel = Map.of("app.kubernetes.io/managed-by", "Helm");
    assertTrue(PruneDecision.keepReason(helmLabel, ours, release).isEmpty());
    Map<String, String> otherRelease =
        Map.of("meta.helm.sh/release-name", "api", "meta.helm.sh/release-namespace", "prod");
    assertEquals(
        "kept: not labelled as owned by apps/app",
        PruneDecision.keepReason(helmLabel, otherRelease, release).orElseThrow());
    Map<String, String> otherNamespace =
        Map.of("meta.helm.sh/release-name", "web", "meta.helm.sh/release-namespace", "dev");
    assertTrue(PruneDecision.keepReason(helmLabel, otherNamespace, release).isPresent());
    assertEquals(
        "kept: owned by HelmRelease apps/other, not apps/app",
        PruneDecision.keepReason(Owner.helmRelease("other", "apps").labels(), ours, release)
            .orElseThrow(),
        "another HelmRelease's label wins over Helm's annotations");
    Map<String, String> kustomizations = new HashMap<>(new Owner("app", "apps").labels());
    kustomizations.put("app.kubernetes.io/managed-by", "Helm");
    assertEquals(
        "kept: not labelled as owned by apps/app",
        PruneDecision.keepReason(kustomizations, ours, release).orElseThrow(),
        "a Kustomization's label wins over Helm's annotations");
    assertTrue(
        PruneDecision.keepReason(helmLabel, ours, Owner.helmRelease("app", "apps")).isPresent(),
        "an owner that knows no release goes by its labels alone");
  }
}
