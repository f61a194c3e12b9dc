package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.source.helm.ChartPushes;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.OciRegistry;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The infrastructure of Flux's HelmRelease example ({@code fluxcd/flux2-kustomize-helm-example},
 * folder {@code infrastructure} at commit {@code 2b8cffe}, the last one with cert-manager and
 * ingress-nginx) applied as its clusters' Kustomizations apply it, and all of it Ready and Healthy.
 *
 * <p>The example's objects (test resources under {@code flux-example/}) differ from the example
 * only in their API groups and the URLs of their chart repositories, each change marked there: the
 * charts are the corpus's cert-manager v1.21.2, pushed with the real {@code helm} to a local OCI
 * registry for the example's OCIRepository, and ingress-nginx 4.11.0, served by a local index
 * server for its HelmRepository. The example's versions ({@code 1.x}, {@code *}) select them
 * unchanged.
 *
 * <p>The example's namespaces {@code cert-manager} and {@code ingress-nginx} keep their fixed names
 * (renaming them would change the example's objects): the test refuses to start when they exist and
 * removes them at the end by deleting its Kustomizations, whose prune uninstalls both releases. The
 * GitRepository and the Kustomizations are in the test's own namespace; the Kustomizations add the
 * test engine's shard label to what they apply, and to the HelmChart template of ingress-nginx, as
 * a user's labels would be added.
 */
class FluxExampleInfrastructureIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofMinutes(8);
  private static final String WEBHOOK = "cert-manager-webhook";
  private static final List<String> NAMESPACES = List.of("cert-manager", "ingress-nginx");
  private static final List<String> FILES =
      List.of(
          "infrastructure/controllers/kustomization.yaml",
          "infrastructure/controllers/cert-manager.yaml",
          "infrastructure/controllers/ingress-nginx.yaml",
          "infrastructure/configs/kustomization.yaml",
          "infrastructure/configs/cluster-issuers.yaml");

  @Test
  void theExampleInfrastructureIsReadyAndHealthyAsHelmSeesIt(
      ClusterAccess cluster, @TempDir Path work) throws Exception {
    for (String namespace : NAMESPACES) {
      assertNull(
          engine.client.namespaces().withName(namespace).get(),
          "namespace " + namespace + " is left from an earlier run: delete it first");
    }
    Path charts = Path.of(HelmReleaseIT.script("charts"));
    try (OciRegistry registry =
            OciRegistry.start(work.resolve("registry"), OciRegistry.Options.plain());
        IndexServer served = IndexServer.http();
        AdmitAllWebhook webhook = AdmitAllWebhook.start()) {
      ChartPushes pushes = new ChartPushes(registry, work, List.of("--plain-http"));
      pushes.helmPush(pushes.pack(charts.resolve("cert-manager")), "jetstack/charts");
      byte[] nginx = Files.readAllBytes(pushes.pack(charts.resolve("ingress-nginx")));
      served.serveFile("ingress-nginx-4.11.0.tgz", nginx);
      served.serve(
          TestCharts.index("ingress-nginx", Map.of("4.11.0", nginx))
              .getBytes(StandardCharsets.UTF_8));
      git.commit(example(registry.host(), served.url()));
      engine.gitRepository("flux-system", git.url());
      try {
        Path helmHome = Files.createDirectories(work.resolve("helm-home"));
        applyAndCheck(HelmReleases.helm(cluster, helmHome), webhook);
      } finally {
        removeAll();
      }
    }
  }

  private void applyAndCheck(HelmReleaseIT.Helm helm, AdmitAllWebhook webhook) throws Exception {
    String shard = "{" + EngineFixture.SHARD_LABEL + ": " + engine.shard + "}";
    engine.kustomization(
        "infra-controllers",
        "flux-system",
        "./infrastructure/controllers",
        """
          retryInterval: 2m
          timeout: 5m
          wait: true
          commonMetadata: {labels: %s}
          patches:
            - target: {kind: HelmRelease, name: ingress-nginx}
              patch: |
                - {op: add, path: /spec/chart/metadata, value: {labels: %s}}
        """
            .formatted(shard, shard));
    engine.kustomization(
        "infra-configs",
        "flux-system",
        "./infrastructure/configs",
        """
          dependsOn: [{name: infra-controllers}]
          retryInterval: 2m
          timeout: 5m
          commonMetadata: {labels: %s}
          patches:
            - target: {kind: ClusterIssuer, name: letsencrypt}
              patch: |
                - op: replace
                  path: /spec/acme/server
                  value: https://acme-staging-v02.api.letsencrypt.org/directory
        """
            .formatted(shard));

    var admission = engine.client.admissionRegistration().v1();
    EngineFixture.eventually(WAIT)
        .until(
            () ->
                admission.validatingWebhookConfigurations().withName(WEBHOOK).get() != null
                    && admission.mutatingWebhookConfigurations().withName(WEBHOOK).get() != null);
    // Until the cert-manager release is deployed, a retried apply may point its webhooks back at
    // the chart's Service, which no pod serves here: stand in again and write again until it holds.
    EngineFixture.eventually(WAIT)
        .untilAsserted(
            () -> {
              webhook.standIn(engine.client, WEBHOOK);
              issuedAsCertManagerWould("ingress-nginx");
            });

    for (String name : List.of("cert-manager", "ingress-nginx")) {
      awaitRelease(name, "Ready");
      awaitRelease(name, "Healthy");
    }
    engine.awaitCondition("infra-controllers", "Ready", WAIT, EngineTestBase::isTrue);
    engine.awaitCondition("infra-configs", "Ready", WAIT, EngineTestBase::isTrue);
    // as Flux names a chart from an OCIRepository: its version with the artifact's digest
    String revision =
        engine
            .client
            .resources(OCIRepository.class)
            .inNamespace("cert-manager")
            .withName("cert-manager")
            .get()
            .getStatus()
            .artifact()
            .revision();
    assertEquals(
        List.of(
            "cert-manager 1 deployed cert-manager-1.21.2+"
                + revision.substring(revision.indexOf("@sha256:") + 8).substring(0, 12)),
        helm.list("cert-manager"));
    assertEquals(
        List.of("ingress-nginx 1 deployed ingress-nginx-4.11.0"), helm.list("ingress-nginx"));
    assertTrue(
        webhook.admitted() > 0, "ingress-nginx's Issuers and the ClusterIssuer were admitted");
    GenericKubernetesResource issuer =
        engine
            .client
            .genericKubernetesResources("cert-manager.io/v1", "ClusterIssuer")
            .withName("letsencrypt")
            .get();
    assertEquals(
        "https://acme-staging-v02.api.letsencrypt.org/directory",
        issuer.get("spec", "acme", "server"),
        "the configs' ClusterIssuer, as the staging cluster's patch sets it");
  }

  /**
   * Waits for ingress-nginx's two Issuers and two Certificates in {@code namespace} and writes
   * their status as cert-manager's controller reports a ready issuer and an issued certificate,
   * Ready True for their generation: no cert-manager controller runs on the local control plane,
   * and the engine's health checks wait for that status.
   */
  private static void issuedAsCertManagerWould(String namespace) {
    EngineFixture.eventually(WAIT)
        .untilAsserted(
            () -> {
              for (String kind : List.of("Issuer", "Certificate")) {
                var objects =
                    engine
                        .client
                        .genericKubernetesResources("cert-manager.io/v1", kind)
                        .inNamespace(namespace)
                        .list()
                        .getItems();
                assertEquals(2, objects.size(), () -> kind + "s in " + namespace);
              }
            });
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    for (String kind : List.of("Issuer", "Certificate")) {
      var objects = engine.client.genericKubernetesResources("cert-manager.io/v1", kind);
      for (GenericKubernetesResource object : objects.inNamespace(namespace).list().getItems()) {
        object.setAdditionalProperty(
            "status",
            Map.of(
                "conditions",
                List.of(
                    Map.of(
                        "type", "Ready",
                        "status", "True",
                        "reason", "Ready",
                        "message", "marked ready by the test, as cert-manager would",
                        "observedGeneration", object.getMetadata().getGeneration(),
                        "lastTransitionTime", now))));
        objects.inNamespace(namespace).resource(object).updateStatus();
      }
    }
  }

  /** The example's files with the URLs of this test's registry and index server filled in. */
  private static Map<String, String> example(String registryHost, String chartsUrl)
      throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    for (String file : FILES) {
      try (InputStream in =
          FluxExampleInfrastructureIT.class.getResourceAsStream("/flux-example/" + file)) {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        files.put(
            file, text.replace("REGISTRY_HOST", registryHost).replace("CHARTS_URL", chartsUrl));
      }
    }
    return files;
  }

  private static void awaitRelease(String name, String type) {
    EngineFixture.eventually(WAIT)
        .untilAsserted(
            () -> {
              HelmRelease release = release(name);
              Condition condition =
                  HelmReleaseStatuses.condition(release.getStatus(), type).orElse(null);
              assertTrue(
                  condition != null && isTrue(condition),
                  () -> "HelmRelease " + name + " has status " + release.getStatus());
            });
  }

  private static HelmRelease release(String name) {
    return engine.client.resources(HelmRelease.class).inNamespace(name).withName(name).get();
  }

  /**
   * Deletes the Kustomizations (configs first, as their dependency order asks) and waits until
   * their prune has uninstalled both releases and the example's namespaces are gone.
   */
  private static void removeAll() {
    for (String name : List.of("infra-configs", "infra-controllers")) {
      engine.client.resources(Kustomization.class).inNamespace(ns()).withName(name).delete();
      EngineFixture.eventually(WAIT).until(() -> engine.kustomization(name) == null);
    }
    for (String namespace : NAMESPACES) {
      EngineFixture.eventually(WAIT)
          .until(() -> engine.client.namespaces().withName(namespace).get() == null);
    }
  }
}
