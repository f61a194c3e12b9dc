package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.cli.CliRun;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubernetesCluster.class)
class SuspendResumeIT {
  private static Path kubeconfig;
  private static String ns;
  private static KubernetesClient client;
  private static CliFixtures fixtures;

  @BeforeAll
  static void setUp(KubernetesClient kube, TestNamespace namespace, ClusterAccess access) {
    CapstanCrds.install(kube);
    client = kube;
    kubeconfig = access.kubeconfig();
    ns = namespace.name();
    fixtures = new CliFixtures(kube, ns);
  }

  @Test
  void suspendThenResumeRequestsAReconcileAndWaitsForIt() {
    fixtures.kustomization("cycle", "");
    CliRun suspend = CliRun.capstan(kubeconfig, "suspend", "ks", "cycle", "-n", ns);
    assertEquals(0, suspend.exitCode(), suspend::toString);
    assertEquals("Kustomization cycle suspended\n", suspend.out());
    assertTrue(fixtures.get("cycle").getSpec().suspended());

    CliRun again = CliRun.capstan(kubeconfig, "suspend", "ks", "cycle", "-n", ns);
    assertEquals(0, again.exitCode(), again::toString);
    assertEquals("Kustomization cycle is already suspended\n", again.out());

    CliRun listed = CliRun.capstan(kubeconfig, "get", "ks", "cycle", "-n", ns);
    assertTrue(listed.outLines().get(1).matches("cycle +- +- +- +true .*"), listed::toString);

    try (PretendController controller = new PretendController(client, ns)) {
      CliRun resume =
          CliRun.capstan(kubeconfig, "resume", "ks", "cycle", "-n", ns, "--timeout", "60s");
      assertEquals(0, resume.exitCode(), resume::toString);
      assertTrue(
          resume
              .out()
              .endsWith(
                  "Kustomization cycle reconciled: applied revision"
                      + " main@sha1:0123456789abcdef\n"),
          resume::toString);
    }
    Kustomization ks = fixtures.get("cycle");
    assertFalse(ks.getSpec().suspended());
    assertNotNull(PretendController.requested(ks));
    assertEquals(PretendController.requested(ks), ks.getStatus().lastHandledReconcileAt());
  }

  @Test
  void resumeWithoutWaitingOnlyClearsSuspendAndRequestsAReconcile() {
    fixtures.kustomization("nowait", "suspend: true");
    CliRun resume = CliRun.capstan(kubeconfig, "resume", "ks", "nowait", "-n", ns, "--no-wait");
    assertEquals(0, resume.exitCode(), resume::toString);
    assertEquals("Kustomization nowait resumed\n", resume.out());
    Kustomization ks = fixtures.get("nowait");
    assertFalse(ks.getSpec().suspended());
    assertNotNull(PretendController.requested(ks));
  }

  @Test
  void gitRepositoriesCanBeSuspendedToo() {
    fixtures.gitRepository("paused-repo");
    CliRun suspend = CliRun.capstan(kubeconfig, "suspend", "gitrepo", "paused-repo", "-n", ns);
    assertEquals(0, suspend.exitCode(), suspend::toString);
    CliRun listed = CliRun.capstan(kubeconfig, "get", "gitrepo", "paused-repo", "-n", ns);
    assertTrue(
        listed.outLines().get(1).matches("paused-repo +\\S+ +- +- +true .*"), listed::toString);
  }

  @Test
  void suspendingOrResumingAMissingKustomizationFailsInOneLine() {
    for (String command : new String[] {"suspend", "resume"}) {
      CliRun run = CliRun.capstan(kubeconfig, command, "ks", "ghost", "-n", ns);
      assertEquals(1, run.exitCode(), run::toString);
      assertEquals("error: Kustomization ghost not found in namespace " + ns + "\n", run.err());
    }
  }
}
