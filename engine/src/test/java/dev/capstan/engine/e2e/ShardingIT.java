package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.EngineOptions;
import dev.capstan.engine.shard.ShardOptions;
import dev.capstan.sharding.ShardKey;
import dev.capstan.sharding.SlotClaims;
import dev.capstan.sharding.SlotRange;
import dev.capstan.sharding.SlotSpace;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas share one set of Kustomizations: each owns a part of the hash slots (written in the
 * group's shard map), every Kustomization becomes Ready, and when one replica stops, the other
 * takes its slots, fetches at once a source the stopped one owned (a commit made meanwhile shows in
 * its status long before its interval) and applies the next commit of a Kustomization the stopped
 * one owned.
 */
@ExtendWith(KubernetesCluster.class)
class ShardingIT {
  private static final int KUSTOMIZATIONS = 12;
  private static final String GROUP = "sharding-it";

  private static KubernetesClient client;
  private static EngineFixture first;
  private static EngineFixture second;
  private static GitFixture git;
  private static String namespace;

  @BeforeAll
  static void start(ClusterAccess cluster, TestNamespace ns, @TempDir Path repo) {
    namespace = ns.name();
    client = EngineFixture.client(cluster.kubeconfig());
    git = GitFixture.create(repo);
    first = EngineFixture.start(client, namespace, replica("replica-a", Optional.empty()));
    String selector = EngineFixture.SHARD_LABEL + "=" + first.shard;
    // each replica its own client, as each process has: closing one must not close the other's
    second =
        EngineFixture.start(
            EngineFixture.client(cluster.kubeconfig()),
            namespace,
            replica("replica-b", Optional.of(selector)));
  }

  private static UnaryOperator<EngineOptions> replica(String name, Optional<String> selector) {
    ShardOptions shards =
        new ShardOptions(
            name,
            GROUP,
            Optional.of(namespace),
            ShardKey.UID,
            Duration.ofSeconds(6),
            Duration.ofSeconds(1),
            SlotSpace.DEFAULT);
    return o -> {
      EngineOptions sharded = o.withSharding(Optional.of(shards));
      return selector.isPresent() ? sharded.withWatchLabelSelector(selector) : sharded;
    };
  }

  @AfterAll
  static void stop() {
    if (second != null) {
      second.close();
    }
    if (first != null) {
      first.close();
    }
    if (git != null) {
      git.close();
    }
  }

  @Test
  void replicasShareTheKustomizationsAndOneTakesOverWhenTheOtherStops() {
    Map<String, String> files = new HashMap<>();
    for (int i = 0; i < KUSTOMIZATIONS; i++) {
      files.put("k" + i + "/cm.yaml", Manifests.configMap("cm-" + i, "one"));
    }
    git.commit(files);
    first.gitRepository("repo", git.url());
    for (int i = 0; i < KUSTOMIZATIONS; i++) {
      first.kustomization("k" + i, "repo", "./k" + i, "");
    }
    for (int i = 0; i < KUSTOMIZATIONS; i++) {
      first.awaitCondition("k" + i, "Ready", Duration.ofSeconds(120), EngineTestBase::isTrue);
    }

    Map<String, List<SlotRange>> claims = claims();
    assertEquals(List.of("replica-a", "replica-b"), claims.keySet().stream().sorted().toList());
    Map<String, String> owners = owners(claims);
    assertTrue(owners.containsValue("replica-a") && owners.containsValue("replica-b"), "" + owners);

    String movedName =
        owners.entrySet().stream()
            .filter(e -> e.getValue().equals("replica-b"))
            .findFirst()
            .orElseThrow()
            .getKey();
    // a source the stopping replica owns, and a commit it will not fetch (its interval is 10m)
    String movedSource = sourceOwnedBy("replica-b", claims);
    String meanwhile = git.commit(Map.of("meanwhile/note.txt", "made while replica-b stops"));
    second.close();
    second = null;
    // the stopped replica gave its slots up; the other claims them within a few renew periods
    EngineFixture.eventually(Duration.ofSeconds(10))
        .until(
            () ->
                claims()
                    .equals(
                        Map.of("replica-a", List.of(new SlotRange(0, SlotSpace.DEFAULT.count())))));

    // the replica that took the source's slot fetches it at once and writes its status
    EngineFixture.eventually(Duration.ofSeconds(30))
        .until(
            () -> {
              GitRepository taken = first.gitRepository(movedSource);
              return taken.getStatus() != null
                  && taken.getStatus().artifact() != null
                  && meanwhile.equals(taken.getStatus().artifact().revision());
            });

    String index = movedName.substring(1);
    String next =
        git.commit(Map.of(movedName + "/cm.yaml", Manifests.configMap("cm-" + index, "two")));
    first.requestReconcile(GitRepository.class, "repo");
    first.awaitCondition(
        movedName,
        "Ready",
        Duration.ofSeconds(60),
        c -> ("Applied revision: " + next).equals(c.getMessage()));
    assertEquals(
        "two",
        client
            .configMaps()
            .inNamespace(namespace)
            .withName("cm-" + index)
            .get()
            .getData()
            .get("value"));
  }

  /**
   * The name of a GitRepository, made for it, whose slot {@code replica} holds: sources are made
   * until one lands there (each lands in either replica's half by the hash of its uid).
   */
  private static String sourceOwnedBy(String replica, Map<String, List<SlotRange>> claims) {
    for (int i = 0; i < 32; i++) {
      String name = "src-" + i;
      first.gitRepository(name, git.url());
      String uid = first.gitRepository(name).getMetadata().getUid();
      int slot = SlotSpace.DEFAULT.slotOf(ShardKey.UID.hash(uid));
      if (claims.get(replica).stream().anyMatch(r -> r.contains(slot))) {
        first.awaitSourceCondition(name, "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
        return name;
      }
    }
    throw new AssertionError("no GitRepository landed in the slots of " + replica);
  }

  /** The group's shard map, as the replicas wrote it. */
  private static Map<String, List<SlotRange>> claims() {
    Lease map = client.leases().inNamespace(namespace).withName("capstan-shards-" + GROUP).get();
    Map<String, List<SlotRange>> claims = new HashMap<>();
    String text = map.getMetadata().getAnnotations().getOrDefault("shards.capstan.dev/claims", "");
    for (String entry : text.split(";")) {
      if (!entry.isBlank()) {
        String[] parts = entry.split("=", 2);
        claims.put(parts[0], SlotClaims.read(parts[1], SlotSpace.DEFAULT));
      }
    }
    return claims;
  }

  /** Each Kustomization's owner by the slot its uid hashes to. */
  private static Map<String, String> owners(Map<String, List<SlotRange>> claims) {
    Map<String, String> owners = new HashMap<>();
    for (int i = 0; i < KUSTOMIZATIONS; i++) {
      String uid = first.kustomization("k" + i).getMetadata().getUid();
      int slot = SlotSpace.DEFAULT.slotOf(ShardKey.UID.hash(uid));
      String name = "k" + i;
      claims.forEach(
          (replica, ranges) -> {
            if (ranges.stream().anyMatch(r -> r.contains(slot))) {
              owners.put(name, replica);
            }
          });
    }
    return owners;
  }
}
