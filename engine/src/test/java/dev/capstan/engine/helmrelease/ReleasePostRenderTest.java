package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.kustomize.CommonMetadata;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.helm.release.ReleaseStatus;
import dev.capstan.kube.BoundedYaml;
import dev.capstan.kustomize.chart.ChartPostRenderer;
import dev.capstan.kustomize.chart.ChartRender;
import dev.capstan.kustomize.chart.ChartRenderRequest;
import dev.capstan.kustomize.chart.PostRenderStrategy;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** spec.postRenderers and spec.commonMetadata in a HelmRelease's render, and their digests. */
class ReleasePostRenderTest {
  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  {
    fakes.manifest = text("manifest.yaml");
  }

  @Test
  void thePostRenderersAndTheirStrategyReachTheChartWorker() {
    pipeline.reconcile(release());

    ChartRenderRequest request = fakes.requests.get(0);
    assertEquals(PostRenderStrategy.NOHOOKS, request.postRenderStrategy());
    ChartPostRenderer renderer = request.postRenderers().get(0);
    assertEquals(1, request.postRenderers().size());
    assertEquals(
        new ChartPostRenderer.Target(null, null, "Deployment", "podinfo", null, null, null),
        renderer.patches().get(0).target());
    assertTrue(renderer.patches().get(0).patch().contains("path: /metadata/annotations"));
    assertEquals(
        List.of(new ChartPostRenderer.Image("ghcr.io/stefanprodan/podinfo", null, "6.5.1", null)),
        renderer.images());
  }

  @Test
  void commonMetadataIsOnEveryObjectOfTheRecordAndOfWhatIsApplied() {
    HelmRelease release = release();
    pipeline.reconcile(release);

    String manifest = fakes.records.get(1).release().manifest();
    List<GenericKubernetesResource> objects = ManifestObjects.of(manifest, release);
    assertEquals(2, objects.size());
    for (GenericKubernetesResource object : objects) {
      Map<String, String> labels = object.getMetadata().getLabels();
      assertEquals("payments", labels.get("team"), object.getKind());
      // Helm's ownership label is set after the post-renderers, as Helm sets it
      assertEquals("Helm", labels.get("app.kubernetes.io/managed-by"));
      assertEquals("payments@example.com", object.getMetadata().getAnnotations().get("owner"));
    }
    // the chart's own labels stay beside them; its value of a commonMetadata key gives way
    assertEquals("podinfo", objects.get(0).getMetadata().getLabels().get("app"));
    assertFalse(manifest.contains("chart-default"), manifest);
  }

  @Test
  void aSuccessfulReleaseRecordsTheDigestsItWasMadeWith() {
    HelmRelease release = release();
    pipeline.reconcile(release);

    assertTrue(release.getStatus().observedPostRenderersDigest().startsWith("sha256:"));
    assertTrue(release.getStatus().observedCommonMetadataDigest().startsWith("sha256:"));
  }

  @Test
  void aChangeOfCommonMetadataAloneUpgradesToTheNextVersion() {
    HelmRelease release = release();
    pipeline.reconcile(release);
    String before = release.getStatus().observedCommonMetadataDigest();

    // the same generation: only the digest tells the change
    release.getSpec().commonMetadata().labels().put("team", "billing");
    pipeline.reconcile(release);

    assertEquals(2, fakes.renders);
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(2).release().status());
    assertTrue(fakes.records.get(2).release().manifest().contains("team: billing"));
    assertNotEquals(before, release.getStatus().observedCommonMetadataDigest());
  }

  @Test
  void aChangeOfThePostRenderersAloneUpgrades() {
    HelmRelease release = release();
    pipeline.reconcile(release);

    release.getSpec().postRenderers().get(0).kustomize().images().clear();
    pipeline.reconcile(release);

    assertEquals(2, fakes.renders);
    assertTrue(fakes.requests.get(1).postRenderers().get(0).images().isEmpty());
  }

  @Test
  void unchangedPostRenderersAndCommonMetadataRenderNothing() {
    HelmRelease release = release();
    pipeline.reconcile(release);

    pipeline.reconcile(release);

    assertEquals(1, fakes.renders);
  }

  @Test
  void withoutEitherNoDigestIsRecordedAndTheRenderIsLeftAsItIs() throws Exception {
    HelmRelease release = ReleaseFakes.release();
    fakes.manifest = ReleaseFakes.read("manifest.yaml");
    pipeline.reconcile(release);

    assertNull(release.getStatus().observedPostRenderersDigest());
    assertNull(release.getStatus().observedCommonMetadataDigest());
    assertEquals(fakes.manifest, fakes.records.get(1).release().manifest());
    ChartRender render = new ChartRender(null, "a: 1\n", List.of(), "");
    assertSame(
        render,
        CommonMetadataRender.apply(render, null, HelmReleaseSpec.PostRenderStrategy.combined));
  }

  @Test
  void hooksGetCommonMetadataUnlessTheStrategyLeavesHooksOut() throws Exception {
    CommonMetadata common = new CommonMetadata(Map.of("team", "payments"), null);
    ChartRender.Hook hook =
        new ChartRender.Hook(
            "podinfo/templates/job.yaml",
            "Job",
            "migrate",
            List.of("pre-install"),
            0,
            List.of(),
            List.of(),
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\n");
    ChartRender render = new ChartRender(null, "", List.of(hook), "");

    String combined =
        CommonMetadataRender.apply(render, common, HelmReleaseSpec.PostRenderStrategy.combined)
            .hooks()
            .get(0)
            .manifest();
    String nohooks =
        CommonMetadataRender.apply(render, common, HelmReleaseSpec.PostRenderStrategy.nohooks)
            .hooks()
            .get(0)
            .manifest();

    assertTrue(combined.contains("team: payments"), combined);
    assertFalse(nohooks.contains("team"), nohooks);
  }

  @Test
  void commonMetadataKeepsEveryOtherScalarExactlyAsWritten() throws Exception {
    CommonMetadata common = new CommonMetadata(Map.of("team", "true"), Map.of("owner", "1.0"));

    String out = CommonMetadataRender.manifest(text("scalars.yaml"), common);

    for (String kept :
        List.of(
            "big: 9007199254740993",
            "float: 1.0",
            "octal: 0o17",
            "quoted: \"1.0\"",
            "single: 'yes'",
            "flag: True",
            "empty: ~",
            "    line one\n    line two\n",
            "flow: {a: 1.50, b: [0x1F, 1e3]}")) {
      assertTrue(out.contains(kept), kept + " in\n" + out);
    }
    Map<?, ?> metadata = (Map<?, ?>) ((Map<?, ?>) new BoundedYaml().readOne(out)).get("metadata");
    assertEquals(Map.of("app", "scalars", "team", "true"), metadata.get("labels"));
    assertEquals(Map.of("owner", "1.0"), metadata.get("annotations"));
  }

  @Test
  void aLabelsMappingSharedThroughAnAliasIsNotChangedElsewhere() throws Exception {
    CommonMetadata common = new CommonMetadata(Map.of("team", "payments"), null);

    String out = CommonMetadataRender.manifest(text("scalars.yaml"), common);

    Map<?, ?> object = (Map<?, ?>) new BoundedYaml().readOne(out);
    Map<?, ?> selector = (Map<?, ?>) ((Map<?, ?>) object.get("spec")).get("selector");
    assertEquals(Map.of("app", "scalars"), selector.get("matchLabels"));
  }

  @Test
  void aManifestThatIsNotYamlFailsTheInstallWithoutQuotingIt() {
    fakes.manifest = "kind: [unclosed secret-value";
    HelmRelease release = release();

    pipeline.reconcile(release);

    Condition ready = HelmReleaseStatuses.condition(release.getStatus(), "Ready").orElseThrow();
    assertEquals("InstallFailed", ready.getReason());
    assertFalse(ready.getMessage().contains("secret-value"), ready.getMessage());
    assertNotNull(ready.getMessage());
  }

  @Test
  void anUnexpectedFailureOfTheRenderIsNotWrittenIntoReady() {
    fakes.renderThrows = new IllegalArgumentException("cannot read secret-value");
    HelmRelease release = release();

    assertThrows(IllegalArgumentException.class, () -> pipeline.reconcile(release));

    assertTrue(
        release.getStatus() == null
            || HelmReleaseStatuses.condition(release.getStatus(), "Ready")
                .map(c -> !String.valueOf(c.getMessage()).contains("secret-value"))
                .orElse(true));
  }

  private static HelmRelease release() {
    return new KubernetesSerialization().unmarshal(text("podinfo.yaml"), HelmRelease.class);
  }

  private static String text(String name) {
    try (InputStream in =
        ReleasePostRenderTest.class.getResourceAsStream("/helmrelease/postrender/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
