package dev.capstan.cli.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.CliRun;
import dev.capstan.engine.testing.Kubectl;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstan install} into the local control plane, in a namespace of the test's own: the
 * engine's objects there and its cluster-wide bindings naming it, a re-run that changes nothing, an
 * upgrade of the image in place, and an export that the API server accepts as it is.
 */
@ExtendWith(KubernetesCluster.class)
class InstallCommandIT {
  private static KubernetesClient client;
  private static ClusterAccess access;
  private static String ns;

  @BeforeAll
  static void setUp(KubernetesClient kube, TestNamespace namespace, ClusterAccess cluster) {
    client = kube;
    access = cluster;
    ns = namespace.name();
  }

  @AfterAll
  static void removeClusterWideObjects() {
    InstallCleanup.removeClusterWide(client);
  }

  @Test
  void installsIdempotentlyUpgradesInPlaceAndExportsWhatTheServerAccepts(@TempDir Path dir)
      throws Exception {
    CliRun first = install("--image", "capstan:1.0.0");
    assertEquals(0, first.exitCode(), first::toString);
    assertTrue(first.out().contains("applied: "), first::toString);
    assertTrue(first.out().contains("wait: all "), first::toString);
    Deployment engine = deployment();
    assertEquals("capstan:1.0.0", image(engine));
    ClusterRoleBinding binding =
        client.rbac().clusterRoleBindings().withName("capstan-controller").get();
    assertEquals(ns, binding.getSubjects().get(0).getNamespace());
    assertEquals(
        ns,
        client
            .namespaces()
            .withName(ns)
            .get()
            .getMetadata()
            .getLabels()
            .get("kustomize.capstan.dev/namespace"));

    CliRun again = install("--image", "capstan:1.0.0");
    assertEquals(0, again.exitCode(), again::toString);
    assertEquals(engine.getMetadata().getGeneration(), deployment().getMetadata().getGeneration());

    CliRun preview = install("--image", "capstan:1.1.0", "--dry-run");
    assertEquals(0, preview.exitCode(), preview::toString);
    assertTrue(
        preview.out().contains("would change Deployment/" + ns + "/capstan"), preview::toString);
    assertTrue(preview.out().contains("dry run: 1 of "), preview::toString);
    assertEquals("capstan:1.0.0", image(deployment()));

    CliRun upgrade = install("--image", "capstan:1.1.0");
    assertEquals(0, upgrade.exitCode(), upgrade::toString);
    assertEquals("capstan:1.1.0", image(deployment()));
    assertEquals(
        engine.getMetadata().getGeneration() + 1, deployment().getMetadata().getGeneration());

    CliRun export = CliRun.run("install", "--export", "--namespace", ns, "--image", "c:2");
    assertEquals(0, export.exitCode(), export::toString);
    Optional<Path> kubectl = Kubectl.find();
    Assumptions.assumeTrue(kubectl.isPresent(), "no kubectl: the export is not fed to one");
    Path file = Files.writeString(dir.resolve("install.yaml"), export.out());
    Kubectl.Result dryRun =
        Kubectl.run(
            kubectl.get(),
            access,
            dir,
            "apply",
            "--server-side",
            "--dry-run=server",
            "--field-manager=capstan",
            "-f",
            file.toString());
    assertEquals(0, dryRun.exitCode(), dryRun.output());
    assertTrue(
        dryRun.output().contains("deployment.apps/capstan serverside-applied"), dryRun.output());
    assertEquals("capstan:1.1.0", image(deployment()), "a dry run changes nothing");
  }

  private static CliRun install(String... more) {
    List<String> args = new ArrayList<>(List.of("install", "--namespace", ns, "--timeout", "2m"));
    args.addAll(List.of(more));
    return CliRun.capstan(access.kubeconfig(), args.toArray(String[]::new));
  }

  private static Deployment deployment() {
    return client.apps().deployments().inNamespace(ns).withName("capstan").get();
  }

  private static String image(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
  }
}
