package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.cli.CliRun;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubernetesCluster.class)
class ReconcileCommandIT {
  private static Path kubeconfig;
  private static String ns;
  private static KubernetesClient client;
  private static PretendController controller;

  @BeforeAll
  static void objects(KubernetesClient kube, TestNamespace namespace, ClusterAccess access) {
    CapstanCrds.install(kube);
    client = kube;
    kubeconfig = access.kubeconfig();
    ns = namespace.name();
    CliFixtures fixtures = new CliFixtures(kube, ns);
    fixtures.gitRepository("repo");
    fixtures.kustomization("app", "");
    fixtures.kustomization("paused", "suspend: true");
    fixtures.kustomization("unattended", "");
    kube.resource(
            TestObjects.read(
                """
                apiVersion: source.capstan.dev/v1
                kind: HelmChart
                metadata: {name: app, namespace: %s}
                spec:
                  chart: ./charts/app
                  sourceRef: {kind: GitRepository, name: repo}
                  interval: 5m
                """
                    .formatted(ns),
                HelmChart.class))
        .create();
    controller = new PretendController(kube, ns);
  }

  @AfterAll
  static void stop() {
    if (controller != null) {
      controller.close();
    }
  }

  @BeforeEach
  void succeedByDefault() {
    controller.willReport(
        "True", "ReconciliationSucceeded", "Applied revision: main@sha1:0123456789abcdef");
  }

  @Test
  void setsTheAnnotationWaitsForTheEchoAndPrintsTheRevision() {
    CliRun run = CliRun.capstan(kubeconfig, "reconcile", "ks", "app", "-n", ns, "--timeout", "60s");
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(
        run.out()
            .endsWith(
                "Kustomization app reconciled: applied revision main@sha1:0123456789abcdef\n"),
        run::toString);
    Kustomization ks = client.resources(Kustomization.class).inNamespace(ns).withName("app").get();
    String token = PretendController.requested(ks);
    assertEquals(token, ks.getStatus().lastHandledReconcileAt());
  }

  @Test
  void withSourceReconcilesTheGitRepositoryFirst() {
    CliRun run =
        CliRun.capstan(
            kubeconfig, "reconcile", "ks", "app", "-n", ns, "--with-source", "--timeout", "60s");
    assertEquals(0, run.exitCode(), run::toString);
    int source =
        run.out()
            .indexOf("GitRepository repo reconciled: fetched revision main@sha1:fedcba9876543210");
    int ks = run.out().indexOf("Kustomization app reconciled");
    assertTrue(source >= 0 && ks > source, run::toString);
    GitRepository repo =
        client.resources(GitRepository.class).inNamespace(ns).withName("repo").get();
    assertEquals(PretendController.requested(repo), repo.getStatus().lastHandledReconcileAt());
  }

  @Test
  void aFailedReconcileIsReportedWithItsReasonAndExitsOne() {
    controller.willReport(
        "False", "HealthCheckFailed", "Deployment/" + ns + "/web: Progress deadline exceeded");
    CliRun run = CliRun.capstan(kubeconfig, "reconcile", "ks", "app", "-n", ns, "--timeout", "60s");
    assertEquals(1, run.exitCode(), run::toString);
    assertEquals(
        "error: Kustomization app is not ready Ready=False (HealthCheckFailed): Deployment/"
            + ns
            + "/web: Progress deadline exceeded\n",
        run.err());
  }

  @Test
  void aSuspendedKustomizationIsRefused() {
    CliRun run = CliRun.capstan(kubeconfig, "reconcile", "ks", "paused", "-n", ns);
    assertEquals(1, run.exitCode(), run::toString);
    assertEquals(
        "error: Kustomization paused is suspended: resume it with `capstan resume ks paused -n "
            + ns
            + "`\n",
        run.err());
  }

  @Test
  void withoutAControllerItTimesOutSayingSo() {
    controller.close();
    try {
      CliRun run =
          CliRun.capstan(kubeconfig, "reconcile", "ks", "unattended", "-n", ns, "--timeout", "3s");
      assertEquals(1, run.exitCode(), run::toString);
      assertEquals(
          "error: timed out after 3s waiting for Kustomization "
              + ns
              + "/unattended: the controller"
              + " has not handled the request yet (is `capstan run` running?)\n",
          run.err());
    } finally {
      controller = new PretendController(client, ns);
    }
  }

  @Test
  void withSourceReconcilesAHelmChartsGitRepositoryFirst() {
    CliRun run =
        CliRun.capstan(
            kubeconfig, "reconcile", "hc", "app", "-n", ns, "--with-source", "--timeout", "60s");
    assertEquals(0, run.exitCode(), run::toString);
    int source =
        run.out()
            .indexOf("GitRepository repo reconciled: fetched revision main@sha1:fedcba9876543210");
    int chart = run.out().indexOf("HelmChart app reconciled");
    assertTrue(source >= 0 && chart > source, run::toString);
    HelmChart read = client.resources(HelmChart.class).inNamespace(ns).withName("app").get();
    assertEquals(PretendController.requested(read), read.getStatus().lastHandledReconcileAt());
  }

  @Test
  void withSourceIsOnlyForKustomizations() {
    CliRun run =
        CliRun.capstan(kubeconfig, "reconcile", "gitrepo", "repo", "-n", ns, "--with-source");
    assertEquals(2, run.exitCode(), run::toString);
  }

  @Test
  void aBadTimeoutIsBadInput() {
    CliRun run =
        CliRun.capstan(kubeconfig, "reconcile", "ks", "app", "-n", ns, "--timeout", "soon");
    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(run.err().contains("invalid duration \"soon\""), run::toString);
  }
}
