package dev.capstan.cli.bootstrap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.cli.CliRun;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstan bootstrap git} against a Git server of the test's own and the local control plane,
 * with an engine running in the test that reconciles only this namespace's objects: the first
 * bootstrap pushes and syncs, a second with the same arguments pushes nothing, a third with a new
 * image pushes a commit, and a plain commit to the repository upgrades the engine's Deployment
 * through Capstan's own Kustomization.
 */
@ExtendWith(KubernetesCluster.class)
class BootstrapIT {
  private static final String PATH = "clusters/test";

  private static KubernetesClient client;
  private static ClusterAccess access;
  private static String ns;
  private static Path bare;
  private static HttpGitServer server;
  private static BootstrapFixture fixture;

  @BeforeAll
  static void setUp(
      KubernetesClient kube, TestNamespace namespace, ClusterAccess cluster, @TempDir Path dir)
      throws Exception {
    client = kube;
    access = cluster;
    ns = namespace.name();
    bare = dir.resolve("repos/fleet");
    BootstrapFixture.bareRepository(bare);
    server = HttpGitServer.anonymous(dir.resolve("repos"));
    fixture = new BootstrapFixture(kube, ns, dir.resolve("artifacts"));
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (fixture != null) {
      fixture.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void bootstrapsSyncsChangesNothingTwiceAndUpgradesThroughACommit(@TempDir Path work)
      throws Exception {
    CliRun first = bootstrap("capstan:1.0.0");
    assertEquals(0, first.exitCode(), first::toString);
    assertTrue(first.out().contains("pushed "), first::toString);
    String pushed = head();
    assertTrue(first.out().contains("is Ready at main@sha1:" + pushed), first::toString);
    assertEquals("True", ready(gitRepository().get()));
    assertEquals("capstan:1.0.0", image());
    try (Git clone = clone(work.resolve("first"))) {
      Path dir = clone.getRepository().getWorkTree().toPath().resolve(PATH + "/" + ns);
      assertTrue(Files.readString(dir.resolve("kustomization.yaml")).contains("capstan-sync.yaml"));
      assertTrue(Files.readString(dir.resolve("capstan-sync.yaml")).contains(server.url("fleet")));
    }

    CliRun again = bootstrap("capstan:1.0.0");
    assertEquals(0, again.exitCode(), again::toString);
    assertTrue(again.out().contains("up to date at " + pushed), again::toString);
    assertEquals(pushed, head(), "nothing is pushed when nothing changed");

    CliRun newer = bootstrap("capstan:2.0.0");
    assertEquals(0, newer.exitCode(), newer::toString);
    String upgrade = head();
    assertNotEquals(pushed, upgrade);
    assertTrue(newer.out().contains("is Ready at main@sha1:" + upgrade), newer::toString);
    assertEquals("capstan:2.0.0", image());

    // A commit alone, with no command run: the engine applies it to itself.
    String commit = commitImage(work.resolve("plain"), "capstan:2.0.0", "capstan:3.0.0");
    gitRepository()
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            client
                .getKubernetesSerialization()
                .asJson(ReconcileRequest.at(Clock.systemUTC()).mergePatch()));
    await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () ->
                String.valueOf(status(kustomization().get()).get("lastAppliedRevision"))
                    .endsWith(commit));
    assertEquals("capstan:3.0.0", image());
    assertEquals("True", ready(kustomization().get()));
  }

  private static CliRun bootstrap(String image) {
    return CliRun.capstan(
        access.kubeconfig(),
        "bootstrap",
        "git",
        "--url",
        server.url("fleet"),
        "--branch",
        "main",
        "--path",
        PATH,
        "--namespace",
        ns,
        "--image",
        image,
        "--timeout",
        "3m");
  }

  private static String head() throws Exception {
    try (Repository repository = Git.open(bare.toFile()).getRepository()) {
      return repository.resolve(Constants.R_HEADS + "main").getName();
    }
  }

  private static Git clone(Path dir) throws Exception {
    return Git.cloneRepository().setURI(server.url("fleet")).setDirectory(dir.toFile()).call();
  }

  private static String commitImage(Path dir, String from, String to) throws Exception {
    try (Git git = clone(dir)) {
      Path file = dir.resolve(PATH + "/" + ns + "/" + SyncManifests.COMPONENTS);
      String yaml = Files.readString(file);
      assertTrue(yaml.contains(from), yaml);
      Files.writeString(file, yaml.replace(from, to));
      PersonIdent someone = new PersonIdent("Operator", "operator@example.com");
      String commit =
          git.commit()
              .setAll(true)
              .setMessage("Upgrade Capstan")
              .setAuthor(someone)
              .setCommitter(someone)
              .setSign(false)
              .call()
              .getName();
      git.push().call();
      return commit;
    }
  }

  private static String image() {
    Deployment deployment = client.apps().deployments().inNamespace(ns).withName("capstan").get();
    return deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
  }

  private static Resource<GenericKubernetesResource> kustomization() {
    return fixture.kustomization();
  }

  private static Resource<GenericKubernetesResource> gitRepository() {
    return fixture.gitRepository();
  }

  private static Map<?, ?> status(GenericKubernetesResource object) {
    return BootstrapFixture.status(object);
  }

  private static String ready(GenericKubernetesResource object) {
    return BootstrapFixture.ready(object);
  }
}
