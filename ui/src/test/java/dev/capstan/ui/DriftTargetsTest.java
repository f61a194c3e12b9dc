package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.kustomization.ReferenceRules;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Drift is computed only for what the engine would reconcile: the same refusals, said where the
 * drift would be, before the GitRepository is fetched or even looked up.
 */
class DriftTargetsTest {
  private static final Kustomization ACROSS =
      UiFixtures.ks(
          """
          apiVersion: kustomize.capstan.dev/v1
          kind: Kustomization
          metadata: {name: app, namespace: team}
          spec:
            sourceRef: {kind: GitRepository, name: repo, namespace: platform}
            path: ./
            interval: 10m
          status: {lastAppliedRevision: "main@sha1:abc"}
          """);

  /** The user's view: one GitRepository per namespace, named repo. */
  private record View(Kustomization ks, Map<String, GitRepository> repos)
      implements DriftTargets.Lookup {
    @Override
    public Optional<Kustomization> kustomization(String namespace, String name) {
      return Optional.of(ks);
    }

    @Override
    public Optional<GitRepository> gitRepository(String namespace, String name) {
      return Optional.ofNullable(repos.get(namespace));
    }
  }

  private static GitRepository repo(String namespace, String url) {
    return Serialization.unmarshal(
        """
        apiVersion: source.capstan.dev/v1
        kind: GitRepository
        metadata: {name: repo, namespace: %s}
        spec: {url: "%s", interval: 10m}
        """
            .formatted(namespace, url),
        GitRepository.class);
  }

  @Test
  void aSourceInAnotherNamespaceIsRefusedUnderTheLockdown() {
    View view = new View(ACROSS, Map.of("platform", repo("platform", "https://git.example/r")));

    DriftTargets.Target locked =
        new DriftTargets(view, new ReferenceRules(true)).target("team", "app").orElseThrow();
    assertEquals(Drift.State.REFUSED, locked.obstacle().orElseThrow().state());
    assertEquals(
        "refused, as the engine would refuse it: cross-namespace references are not allowed:"
            + " sourceRef GitRepository 'platform/repo' is not in namespace 'team'",
        locked.obstacle().get().message());
    assertTrue(locked.repository().isEmpty(), "not even looked up");

    DriftTargets.Target open =
        new DriftTargets(view, new ReferenceRules(false)).target("team", "app").orElseThrow();
    assertEquals(Optional.empty(), open.obstacle());
    assertEquals("main@sha1:abc", open.revision());
  }

  @Test
  void aLocalUrlIsRefusedWithoutTheLockdownToo() {
    View view = new View(ACROSS, Map.of("platform", repo("platform", "file:///srv/tenant-b")));

    DriftTargets.Obstacle obstacle =
        new DriftTargets(view, new ReferenceRules(false))
            .target("team", "app")
            .orElseThrow()
            .obstacle()
            .orElseThrow();
    assertEquals(Drift.State.REFUSED, obstacle.state());
    assertTrue(
        obstacle.message().contains("scheme 'file' is not allowed here"), obstacle.message());
  }

  @Test
  void theViewSaysTheRefusalWhereTheDriftWouldBeAndComputesNothing() {
    View view = new View(ACROSS, Map.of("platform", repo("platform", "https://git.example/r")));
    AtomicInteger computed = new AtomicInteger();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    try (DriftCheck check =
        new DriftCheck(
            (key, deadline) -> {
              computed.incrementAndGet();
              return Drift.of(Drift.State.DONE, key.revision(), "", null, "compared", "");
            },
            Executors.newSingleThreadExecutor(),
            timer,
            Duration.ofSeconds(5),
            Clock.systemUTC())) {
      DriftView drift = new DriftView(new DriftTargets(view, new ReferenceRules(true)), check);

      Drift answer = drift.request("team", "app", true).orElseThrow();
      assertEquals(Drift.State.REFUSED, answer.state());
      assertTrue(answer.message().contains("sourceRef GitRepository 'platform/repo'"));
      assertEquals(answer, drift.current("team", "app").orElseThrow());
      assertEquals(0, computed.get());
    } finally {
      timer.shutdownNow();
    }
  }
}
