package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.cli.CliRun;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubernetesCluster.class)
class GetCommandIT {
  private static Path kubeconfig;
  private static String ns;

  @BeforeAll
  static void objects(KubernetesClient client, TestNamespace namespace, ClusterAccess access) {
    CapstanCrds.install(client);
    kubeconfig = access.kubeconfig();
    ns = namespace.name();
    CliFixtures fixtures = new CliFixtures(client, ns);
    fixtures.gitRepository("repo");
    client
        .resource(
            TestObjects.read(
                """
                apiVersion: source.capstan.dev/v1
                kind: OCIRepository
                metadata: {name: bundle, namespace: %s}
                spec: {url: "oci://registry.example/org/bundle", interval: 5m, suspend: true}
                """
                    .formatted(ns),
                OCIRepository.class))
        .create();
    client
        .resource(
            TestObjects.read(
                """
                apiVersion: source.capstan.dev/v1
                kind: HelmRepository
                metadata: {name: charts, namespace: %s}
                spec: {type: oci, url: "oci://registry.example/org/charts", suspend: true}
                """
                    .formatted(ns),
                HelmRepository.class))
        .create();
    client
        .resource(
            TestObjects.read(
                """
                apiVersion: source.capstan.dev/v1
                kind: Bucket
                metadata: {name: podinfo, namespace: %s}
                spec:
                  endpoint: minio.example.com
                  bucketName: podinfo
                  prefix: apps/
                  interval: 5m
                  suspend: true
                """
                    .formatted(ns),
                Bucket.class))
        .create();
    client
        .resource(
            TestObjects.read(
                """
                apiVersion: source.capstan.dev/v1
                kind: HelmChart
                metadata: {name: podinfo, namespace: %s}
                spec:
                  chart: podinfo
                  sourceRef: {kind: HelmRepository, name: charts}
                  interval: 5m
                  suspend: true
                """
                    .formatted(ns),
                HelmChart.class))
        .create();
    client
        .resource(
            TestObjects.read(
                """
                apiVersion: helm.capstan.dev/v2
                kind: HelmRelease
                metadata: {name: podinfo, namespace: %s}
                spec:
                  interval: 5m
                  chartRef: {kind: OCIRepository, name: podinfo-chart}
                  suspend: true
                """
                    .formatted(ns),
                HelmRelease.class))
        .create();
    fixtures.kustomization("infra", "");
    fixtures.kustomization("app", "suspend: true");
    fixtures.setStatus(
        "infra",
        s ->
            new KustomizationStatus(
                1L,
                List.of(
                    new ConditionBuilder()
                        .withType("Ready")
                        .withStatus("True")
                        .withReason("ReconciliationSucceeded")
                        .withMessage("Applied revision: main@sha1:abc")
                        .withLastTransitionTime("2026-01-01T00:00:00Z")
                        .build(),
                    new ConditionBuilder()
                        .withType("Healthy")
                        .withStatus("True")
                        .withReason("Succeeded")
                        .withMessage("all healthy")
                        .withLastTransitionTime("2026-01-01T00:00:00Z")
                        .build()),
                "main@sha1:abc",
                "main@sha1:abc",
                null,
                null));
  }

  @Test
  void listsKustomizationsOfANamespaceWithTheirStatus() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "ks", "-n", ns);
    assertEquals(0, run.exitCode(), run::toString);
    List<String> lines = run.outLines();
    assertEquals(3, lines.size(), run::toString);
    assertTrue(
        lines.get(0).matches("NAME +READY +HEALTHY +REVISION +SUSPENDED +STATUS +AGE"),
        run::toString);
    assertTrue(lines.get(1).matches("app +- +- +- +true +\\d+s"), run::toString);
    assertTrue(
        lines
            .get(2)
            .matches(
                "infra +True +True +main@sha1:abc +false +Applied revision: main@sha1:abc +\\d+s"),
        run::toString);
  }

  @Test
  void allNamespacesAddsTheNamespaceColumn() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "kustomizations", "-A");
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(run.outLines().get(0).matches("NAMESPACE +NAME +READY .*"), run::toString);
    assertTrue(
        run.outLines().stream().anyMatch(l -> l.matches(ns + " +infra +True .*")), run::toString);
  }

  @Test
  void oneGitRepositoryByNameShowsItsUrl() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "gitrepo", "repo", "-n", ns);
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(
        run.outLines().get(0).matches("NAME +URL +READY +REVISION +SUSPENDED +STATUS +AGE"),
        run::toString);
    assertTrue(
        run.outLines().get(1).matches("repo +http://127.0.0.1:9418/demo.git +- +- +false +\\d+s"),
        run::toString);
  }

  @Test
  void ociRepositoriesAreListedUnderTheirShortName() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "ocirepo", "-n", ns, "-o", "wide");
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(
        run.outLines()
            .get(0)
            .matches("NAME +URL +READY +REVISION +SUSPENDED +STATUS +AGE +VERIFIED +ORIGIN"),
        run::toString);
    assertTrue(
        run.outLines()
            .get(1)
            .matches("bundle +oci://registry.example/org/bundle +- +- +true +\\d+s.*"),
        run::toString);
  }

  @Test
  void helmRepositoriesAreListedWithTheirType() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "helmrepo", "-n", ns, "-o", "wide");
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(
        run.outLines().get(0).matches("NAME +URL +READY +REVISION +SUSPENDED +STATUS +AGE +TYPE"),
        run::toString);
    assertTrue(
        run.outLines()
            .get(1)
            .matches("charts +oci://registry.example/org/charts +- +- +true +\\d+s +oci"),
        run::toString);
  }

  @Test
  void bucketsAreListedWithTheirEndpointProviderAndPrefix() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "bucket", "-n", ns, "-o", "wide");
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(
        run.outLines()
            .get(0)
            .matches("NAME +URL +READY +REVISION +SUSPENDED +STATUS +AGE +PROVIDER +PREFIX"),
        run::toString);
    assertTrue(
        run.outLines()
            .get(1)
            .matches("podinfo +minio.example.com/podinfo +- +- +true +\\d+s +generic +apps/"),
        run::toString);
  }

  @Test
  void helmReleasesAreListedWithTheirChart() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "hr", "-n", ns, "-o", "wide");
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(
        run.outLines()
            .get(0)
            .matches("NAME +URL +READY +REVISION +SUSPENDED +STATUS +AGE +CHART +RELEASE"),
        run::toString);
    assertTrue(
        run.outLines().get(1).matches("podinfo +- +- +true +\\d+s +OCIRepository/podinfo-chart +-"),
        run::toString);
  }

  @Test
  void aMissingObjectIsOneLineAndExitOne() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "ks", "nope", "-n", ns);
    assertEquals(1, run.exitCode(), run::toString);
    assertEquals("error: Kustomization nope not found in namespace " + ns + "\n", run.err());
    assertEquals("", run.out());
  }

  @Test
  void anEmptyNamespaceSaysSo() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "gitrepo", "-n", "kube-public");
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals("No GitRepository objects found in namespace kube-public.\n", run.err());
  }

  @Test
  void nameAndAllNamespacesTogetherAreBadInput() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "ks", "infra", "-A");
    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(
        run.err().startsWith("error: a NAME cannot be combined with --all-namespaces"),
        run::toString);
  }

  @Test
  void helmChartsAreListedWithTheirChartAndSource() {
    CliRun run = CliRun.capstan(kubeconfig, "get", "hc", "-n", ns, "-o", "wide");
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(
        run.outLines()
            .get(0)
            .matches("NAME +URL +READY +REVISION +SUSPENDED +STATUS +AGE +CHART +SOURCE"),
        run::toString);
    assertTrue(
        run.outLines().get(1).matches("podinfo +- +- +true +\\d+s +podinfo +HelmRepository/charts"),
        run::toString);
  }
}
