package dev.capstan.engine.ops.events;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Events land on the real API server, deduplicated and rate limited. */
@ExtendWith(KubernetesCluster.class)
class EventRecorderIT {

  @BeforeAll
  static void installCrds(KubernetesClient client) {
    CapstanCrds.install(client);
  }

  private static <T extends HasMetadata> T create(
      KubernetesClient client,
      TestNamespace ns,
      String apiVersion,
      String kind,
      String name,
      Map<String, Object> spec,
      Class<T> type) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion(apiVersion);
    resource.setKind(kind);
    resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns.name()).build());
    resource.getAdditionalProperties().put("spec", spec);
    client.resource(resource).create();
    return client.resources(type).inNamespace(ns.name()).withName(name).get();
  }

  private static List<Event> eventsOf(KubernetesClient client, TestNamespace ns, String name) {
    return client.v1().events().inNamespace(ns.name()).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .toList();
  }

  @Test
  void repeatedEventsBecomeOneEventWithACountAndFloodsAreCapped(
      KubernetesClient client, TestNamespace ns) {
    Kustomization ks =
        create(
            client,
            ns,
            "kustomize.capstan.dev/v1",
            "Kustomization",
            "web",
            Map.of(
                "interval",
                "5m",
                "prune",
                true,
                "path",
                "./web",
                "sourceRef",
                Map.of("kind", "GitRepository", "name", "repo")),
            Kustomization.class);
    try (EventRecorder recorder = EventRecorder.create(client, "capstan", Clock.systemUTC())) {
      for (int i = 0; i < 3; i++) {
        recorder.record(
            ks,
            EventReason.of(Reason.APPLY_FAILED),
            "Deployment/" + ns.name() + "/web: field is immutable");
      }
      recorder.record(ks, EventReason.APPLIED, "Applied revision: main@sha1:0123456789abcdef");
    }
    await().atMost(Duration.ofSeconds(20)).until(() -> eventsOf(client, ns, "web").size() == 2);
    List<Event> events = eventsOf(client, ns, "web");
    Event failed =
        events.stream().filter(e -> "ApplyFailed".equals(e.getReason())).findFirst().orElseThrow();
    assertEquals(3, failed.getCount());
    assertEquals("Warning", failed.getType());
    assertEquals("Kustomization", failed.getInvolvedObject().getKind());
    assertEquals(ks.getMetadata().getUid(), failed.getInvolvedObject().getUid());
    assertEquals("capstan", failed.getSource().getComponent());
    Event applied =
        events.stream()
            .filter(e -> "ReconciliationSucceeded".equals(e.getReason()))
            .findFirst()
            .orElseThrow();
    assertEquals("Normal", applied.getType());
    assertEquals(1, applied.getCount());

    // A retry loop with a changing message: combined into one Event, and cut off after the burst.
    GitRepository repo =
        create(
            client,
            ns,
            "source.capstan.dev/v1",
            "GitRepository",
            "repo",
            Map.of(
                "url",
                "https://git.invalid/org/repo.git",
                "interval",
                "1m",
                "ref",
                Map.of("branch", "main")),
            GitRepository.class);
    try (EventRecorder recorder = EventRecorder.create(client, "capstan", Clock.systemUTC())) {
      for (int i = 0; i < 200; i++) {
        recorder.record(
            repo,
            EventReason.FETCH_FAILED,
            "fetch https://user:hunter2@git.invalid/org/repo.git failed, attempt " + i);
      }
    }
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> eventsOf(client, ns, "repo").stream().mapToInt(Event::getCount).sum() == 25);
    List<Event> storm = eventsOf(client, ns, "repo");
    assertEquals(11, storm.size(), "10 distinct messages, then one combined Event");
    assertTrue(
        storm.stream()
            .anyMatch(
                e ->
                    e.getMessage().startsWith(EventCorrelator.COMBINED_PREFIX)
                        && e.getCount() == 15));
    assertFalse(
        storm.stream().anyMatch(e -> e.getMessage().contains("hunter2")),
        "no credentials in events");
  }
}
