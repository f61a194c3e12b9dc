package dev.capstan.cli.install;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the real engine (SIGKILL) at random points of reconciles — while applying, pruning or
 * writing status — starts it again, and checks each time that the cluster converges to exactly what
 * the Git revision holds: nothing lost, nothing of Git's left behind, nothing else deleted.
 */
@ExtendWith(KubernetesCluster.class)
class CrashSafetyIT {
  private static final int ROUNDS = 20;
  private static final int FILES = 40;
  private static final String OWNER_LABEL = "kustomize.capstan.dev/name";
  private static final String SHARD_LABEL = "capstan.dev/test-shard";
  private final List<CapstanProcess> processes = new ArrayList<>();

  @BeforeAll
  static void installCrds(KubernetesClient admin) {
    CapstanCrds.install(admin);
  }

  @AfterEach
  void stop(KubernetesClient admin, TestNamespace ns) throws Exception {
    CapstanProcess.stopAll(processes, admin, ns.name());
  }

  @Test
  void killingTheEngineAtRandomPointsLosesAndDeletesNothingAndConverges(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    long seed = Long.getLong("capstan.crash.seed", System.nanoTime());
    Random random = new Random(seed);
    String shard = "crash" + Long.toString(seed & 0xffffff, 36);
    Map<String, String> labels = Map.of(SHARD_LABEL, shard);
    admin
        .configMaps()
        .inNamespace(ns.name())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("not-from-git")
                .endMetadata()
                .addToData("keep", "me")
                .build())
        .create();

    try (LocalGitRepository git = new LocalGitRepository(dir.resolve("repo"))) {
      Map<String, String> expected = mutate(git, random, null);
      admin
          .resource(
              resource(
                  "source.capstan.dev/v1",
                  "GitRepository",
                  ns,
                  "repo",
                  labels,
                  Map.of("url", git.url(), "interval", "10m", "ref", Map.of("branch", "main"))))
          .create();
      admin
          .resource(
              resource(
                  "kustomize.capstan.dev/v1",
                  "Kustomization",
                  ns,
                  "crash",
                  labels,
                  Map.of(
                      "interval",
                      "10m",
                      "prune",
                      true,
                      "path",
                      "./",
                      "targetNamespace",
                      ns.name(),
                      "sourceRef",
                      Map.of("kind", "GitRepository", "name", "repo"))))
          .create();
      CapstanProcess engine = start(access, dir, shard, 0);
      converge(admin, ns, git, expected, engine, seed, 0);

      for (int round = 1; round <= ROUNDS; round++) {
        expected = mutate(git, random, expected);
        requestFetch(admin, ns);
        // A fetch and apply of this size takes about a second: most kills land inside it.
        Thread.sleep(random.nextInt(1500));
        engine.kill();
        engine = start(access, dir, shard, round);
        requestFetch(admin, ns);
        converge(admin, ns, git, expected, engine, seed, round);
        assertNotNull(
            admin.configMaps().inNamespace(ns.name()).withName("not-from-git").get(),
            "round " + round + " (seed " + seed + "): an object not from Git was deleted");
      }
    }
  }

  private CapstanProcess start(ClusterAccess access, Path dir, String shard, int round)
      throws Exception {
    CapstanProcess process =
        CapstanProcess.start(
            access.kubeconfig(),
            dir,
            "crash-" + round,
            List.of("--watch-label-selector", SHARD_LABEL + "=" + shard));
    processes.add(process);
    return process;
  }

  /** A new commit: some files added, some removed, some changed; returns name -> value expected. */
  private static Map<String, String> mutate(
      LocalGitRepository git, Random random, Map<String, String> before) throws Exception {
    Map<String, String> after = new TreeMap<>(before == null ? Map.of() : before);
    Map<String, String> writes = new TreeMap<>();
    List<String> removes = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      String name = String.format("cm-%02d", i);
      int dice = random.nextInt(4);
      if (dice == 0 && after.containsKey(name)) {
        after.remove(name);
        removes.add(name);
      } else if (dice >= 2 || before == null) {
        String value = Long.toString(random.nextLong(), 36);
        after.put(name, value);
        writes.put(
            name + ".yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                + name
                + "\ndata:\n  value: \""
                + value
                + "\"\n");
      }
    }
    for (String name : removes) {
      git.removeWithoutCommit(name + ".yaml");
    }
    git.commit(writes);
    return after;
  }

  private static void requestFetch(KubernetesClient admin, TestNamespace ns) {
    String now = Instant.now().toString();
    for (Class<? extends HasMetadata> type : List.of(GitRepository.class, Kustomization.class)) {
      admin
          .resources(type)
          .inNamespace(ns.name())
          .list()
          .getItems()
          .forEach(
              o ->
                  admin
                      .resources(type)
                      .inNamespace(ns.name())
                      .withName(o.getMetadata().getName())
                      .edit(
                          x -> {
                            x.getMetadata()
                                .getAnnotations()
                                .put("reconcile.capstan.dev/requestedAt", now);
                            return x;
                          }));
    }
  }

  private static void converge(
      KubernetesClient admin,
      TestNamespace ns,
      LocalGitRepository git,
      Map<String, String> expected,
      CapstanProcess engine,
      long seed,
      int round)
      throws Exception {
    String revision = "main@sha1:" + git.head();
    String context = "round " + round + " (seed " + seed + ")";
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .alias(context + ": " + revision + " applied")
        .until(() -> !engine.isAlive() || revision.equals(lastApplied(admin, ns)));
    if (!engine.isAlive()) {
      throw new AssertionError(context + ": the engine exited:\n" + engine.logTail());
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () ->
                assertEquals(
                    expected,
                    inCluster(admin, ns),
                    context + ": the cluster differs from " + revision));
  }

  private static String lastApplied(KubernetesClient admin, TestNamespace ns) {
    Kustomization ks =
        admin.resources(Kustomization.class).inNamespace(ns.name()).withName("crash").get();
    return ks == null || ks.getStatus() == null ? null : ks.getStatus().lastAppliedRevision();
  }

  private static Map<String, String> inCluster(KubernetesClient admin, TestNamespace ns) {
    return admin
        .configMaps()
        .inNamespace(ns.name())
        .withLabel(OWNER_LABEL, "crash")
        .list()
        .getItems()
        .stream()
        .collect(
            Collectors.toMap(
                c -> c.getMetadata().getName(), CrashSafetyIT::value, (a, b) -> a, TreeMap::new));
  }

  private static String value(ConfigMap configMap) {
    return configMap.getData() == null ? null : configMap.getData().get("value");
  }

  private static GenericKubernetesResource resource(
      String apiVersion,
      String kind,
      TestNamespace ns,
      String name,
      Map<String, String> labels,
      Map<String, Object> spec) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion(apiVersion);
    resource.setKind(kind);
    resource.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(ns.name())
            .withLabels(labels)
            .withAnnotations(new HashMap<>(Map.of("capstan.dev/test", "crash")))
            .build());
    resource.getAdditionalProperties().put("spec", spec);
    return resource;
  }
}
