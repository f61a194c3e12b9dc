package dev.capstan.cli.bootstrap;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.cli.CliRun;
import dev.capstan.cli.install.InstallCleanup;
import dev.capstan.engine.Engine;
import dev.capstan.engine.EngineOptions;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.testing.CapstanCrds;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
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
  private static Engine engine;

  @BeforeAll
  static void setUp(
      KubernetesClient kube, TestNamespace namespace, ClusterAccess cluster, @TempDir Path dir)
      throws Exception {
    client = kube;
    access = cluster;
    ns = namespace.name();
    bare = dir.resolve("repos/fleet");
    try (Git git =
        Git.init().setBare(true).setInitialBranch("main").setDirectory(bare.toFile()).call()) {
      // the server takes pushes without authentication
      StoredConfig config = git.getRepository().getConfig();
      config.setBoolean("http", null, "receivepack", true);
      config.save();
    }
    server = HttpGitServer.anonymous(dir.resolve("repos"));
    CapstanCrds.install(kube);
    engine =
        new Engine(
            EngineOptions.defaults(Files.createDirectories(dir.resolve("artifacts")))
                .withWatchLabelSelector(Optional.of("kustomize.capstan.dev/namespace=" + ns))
                .withWaitPoll(Duration.ofSeconds(1)),
            kube,
            List.of());
    engine.start();
  }

  @AfterAll
  static void tearDown() throws Exception {
    // The Kustomization prunes what it applied, the CRDs included: stop the engine before it
    // could, and let the namespace go without it.
    if (engine != null) {
      engine.close();
    }
    for (Resource<GenericKubernetesResource> object : List.of(kustomization(), gitRepository())) {
      if (object.get() != null) {
        object.edit(
            o -> {
              o.getMetadata().setFinalizers(List.of());
              return o;
            });
        object.delete();
      }
    }
    InstallCleanup.removeClusterWide(client);
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
    return client
        .genericKubernetesResources("kustomize.capstan.dev/v1", "Kustomization")
        .inNamespace(ns)
        .withName(ns);
  }

  private static Resource<GenericKubernetesResource> gitRepository() {
    return client
        .genericKubernetesResources("source.capstan.dev/v1", "GitRepository")
        .inNamespace(ns)
        .withName(ns);
  }

  private static Map<?, ?> status(GenericKubernetesResource object) {
    Object status = object.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> map ? map : Map.of();
  }

  private static String ready(GenericKubernetesResource object) {
    if (status(object).get("conditions") instanceof List<?> conditions) {
      for (Object condition : conditions) {
        if (condition instanceof Map<?, ?> map && "Ready".equals(map.get("type"))) {
          return String.valueOf(map.get("status"));
        }
      }
    }
    return "none";
  }
}
