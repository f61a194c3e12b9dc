package dev.capstan.engine.e2e;

import static dev.capstan.engine.e2e.HelmReleaseIT.create;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.source.helm.ChartPushes;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.OciRegistry;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HelmRelease of a chart from an OCIRepository, as Flux's helm-controller releases one: the chart
 * version takes the artifact's digest as build metadata (in {@code helm list} too), a chart pushed
 * again under the same tag is upgraded, an unchanged one is not released again, and a tag that is
 * not the chart's version ({@code latest}) is refused with {@code ChartMutateError} before any
 * release is attempted.
 */
class HelmReleaseOciChartIT extends EngineTestBase {
  private static final String CONFIG = "application/vnd.cncf.helm.config.v1+json";
  private static final String CONTENT = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";

  @Test
  void theChartVersionCarriesTheDigestAndAMutableTagIsRefused(
      ClusterAccess cluster, @TempDir Path work) throws Exception {
    HelmReleaseIT.Helm helm =
        HelmReleases.helm(cluster, Files.createDirectories(work.resolve("helm-home")));
    try (OciRegistry registry =
        OciRegistry.start(work.resolve("registry"), OciRegistry.Options.plain())) {
      ChartPushes pushes = new ChartPushes(registry, work, List.of("--plain-http"));
      pushes.helmPush(pushes.pack(pushes.chart("hello", "1.0.0", 0)), "charts");
      create(
          "source.capstan.dev/v1",
          "OCIRepository",
          "hello",
          """
            interval: 1h
            url: oci://%s/charts/hello
            layerSelector: {mediaType: "%s", operation: copy}
            ref: {tag: 1.0.0}
          """
              .formatted(registry.host(), CONTENT));
      create(
          "helm.capstan.dev/v2",
          "HelmRelease",
          "hello",
          "  interval: 10m\n  chartRef: {kind: OCIRepository, name: hello}\n");

      HelmReleases.await("hello", "Ready", EngineTestBase::isTrue);
      String first = pinned("hello");
      assertEquals(List.of("hello 1 deployed hello-1.0.0+" + first), helm.list());
      HelmReleaseStatus status = HelmReleases.release("hello").getStatus();
      assertEquals("1.0.0+" + first, status.latest().chartVersion());
      assertEquals("1.0.0+" + first, status.lastAttemptedRevision());
      assertEquals(ociDigest("hello"), status.lastAttemptedRevisionDigest());
      assertEquals(ociDigest("hello"), status.latest().ociDigest());

      // the same tag pushed again with other content: a new chart version, so an upgrade
      pushes.helmPush(pushes.pack(pushes.chart("hello", "1.0.0", 64)), "charts");
      engine.requestReconcile(OCIRepository.class, "hello");
      EngineFixture.eventually(HelmReleases.WAIT)
          .untilAsserted(() -> assertEquals(List.of("1 superseded", "2 deployed"), history(helm)));
      String second = pinned("hello");
      assertTrue(!second.equals(first), "the push changed the digest");
      assertEquals(List.of("hello 2 deployed hello-1.0.0+" + second), helm.list());

      // looked at again unchanged: nothing is released
      String requestedAt = requestReconcile();
      EngineFixture.eventually(HelmReleases.WAIT)
          .until(
              () ->
                  requestedAt.equals(
                      HelmReleases.release("hello").getStatus().lastHandledReconcileAt()));
      assertEquals(List.of("1 superseded", "2 deployed"), history(helm));

      // a tag that names no version, as a mutable "latest" does
      Path latest = pushes.pack(pushes.chart("hello", "1.1.0", 0));
      pushes.orasPush("charts/hello:latest", latest, CONFIG, CONTENT);
      engine
          .client
          .resources(OCIRepository.class)
          .inNamespace(ns())
          .withName("hello")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"ref\":{\"tag\":\"latest\"}}}");
      Condition refused =
          HelmReleases.await("hello", "Ready", c -> "ChartMutateError".equals(c.getReason()));
      assertEquals("False", refused.getStatus());
      assertEquals(
          "OCIRepository '"
              + ns()
              + "/hello': artifact revision latest is not a semantic version: an OCI chart is"
              + " pulled by the tag of its version, or by digest",
          refused.getMessage());
      assertEquals(List.of("1 superseded", "2 deployed"), history(helm), "no release attempted");
      assertEquals(
          "1.0.0+" + second,
          HelmReleases.release("hello").getStatus().lastAttemptedRevision(),
          "a refused chart is no attempt");
    }
  }

  /** The first 12 hex digits of the digest of the OCIRepository's artifact. */
  private static String pinned(String name) {
    return ociDigest(name).substring("sha256:".length()).substring(0, 12);
  }

  /** The digest of the OCIRepository's artifact, as its revision names it. */
  private static String ociDigest(String name) {
    String revision =
        engine
            .client
            .resources(OCIRepository.class)
            .inNamespace(ns())
            .withName(name)
            .get()
            .getStatus()
            .artifact()
            .revision();
    return revision.substring(revision.indexOf('@') + 1);
  }

  private static List<String> history(HelmReleaseIT.Helm helm) throws Exception {
    return helm.history("hello");
  }

  /** Asks for a reconcile of the HelmRelease now; returns the time asked, as it handles it. */
  private static String requestReconcile() {
    String at = Instant.now().toString();
    engine
        .client
        .resources(HelmRelease.class)
        .inNamespace(ns())
        .withName("hello")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"reconcile.capstan.dev/requestedAt\":\""
                + at
                + "\"}}}");
    return at;
  }
}
