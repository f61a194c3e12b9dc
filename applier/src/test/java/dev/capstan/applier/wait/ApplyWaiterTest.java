package dev.capstan.applier.wait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.apply.DesiredObject;
import dev.capstan.applier.common.Polling;
import dev.capstan.applier.wait.WaitResult.Verdict;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.Status;
import dev.capstan.kube.ObjectRef;
import dev.capstan.testing.MutableClock;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ApplyWaiterTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Map<String, Map<String, Object>> FIXTURES = load("/wait/objects.yaml");
  private static final ObjectRef READY = deployment("ready");
  private static final ObjectRef ROLLING = deployment("rolling");
  private static final ObjectRef STUCK = deployment("stuck");
  private static final ObjectRef IGNORED = deployment("ignored");
  private static final ObjectRef SETTINGS =
      new ObjectRef("", "v1", "ConfigMap", "apps", "settings");
  private static final ObjectRef WIDGET = new ObjectRef("example.com", "v1", "Widget", "apps", "w");

  private final HealthEvaluator evaluator = HealthEvaluator.withBuiltinLibrary();
  private final MutableClock clock = new MutableClock(T0);

  /** The objects in the "cluster", by name; what the lookup finds. */
  private final Map<String, Map<String, Object>> cluster = new ConcurrentHashMap<>();

  private final AtomicInteger sleeps = new AtomicInteger();
  private Runnable onSleep = () -> {};

  private final Polling polling =
      new Polling(
          clock,
          Duration.ofSeconds(1),
          d -> {
            sleeps.incrementAndGet();
            clock.advance(d);
            onSleep.run();
          });
  private final ApplyWaiter waiter = new ApplyWaiter(() -> this::find, Runnable::run, polling);

  private Lookup find(ObjectRef ref) {
    if (!Set.of("Deployment", "ConfigMap").contains(ref.kind())) {
      return Lookup.kindNotServed(ref.apiVersion(), ref.kind());
    }
    Map<String, Object> object = cluster.get(ref.name());
    return object == null ? Lookup.notFound() : Lookup.found(object);
  }

  @Test
  void allCurrentEndsTheWaitAtOnce() {
    put("ready", "settings");
    WaitResult result = waiter.await(List.of(READY, SETTINGS), evaluator, Duration.ofMinutes(1));
    assertEquals(Verdict.CURRENT, result.verdict());
    assertEquals(2, result.health().evaluated());
    assertEquals(0, sleeps.get());
  }

  @Test
  void aMissingObjectIsNotFoundAndKeepsTheWaitGoingUntilTheTimeout() {
    put("ready");
    WaitResult result = waiter.await(List.of(READY, SETTINGS), evaluator, Duration.ofSeconds(5));
    assertEquals(Verdict.TIMED_OUT, result.verdict());
    assertEquals(Status.InProgress, result.health().status());
    assertEquals("ConfigMap/apps/settings is NotFound: not found", result.health().message());
    assertEquals(5, sleeps.get());
    assertEquals(T0.plusSeconds(5), clock.instant());
  }

  @Test
  void anObjectThatAppearsLaterEndsTheWait() {
    put("ready");
    onSleep =
        () -> {
          if (sleeps.get() == 2) {
            put("settings");
          }
        };
    WaitResult result = waiter.await(List.of(READY, SETTINGS), evaluator, Duration.ofMinutes(1));
    assertEquals(Verdict.CURRENT, result.verdict());
    assertEquals(2, sleeps.get());
  }

  @Test
  void aFailedObjectEndsTheWaitWithoutWaitingForTheOthers() {
    put("stuck");
    WaitResult result =
        waiter.await(List.of(STUCK, SETTINGS, ROLLING), evaluator, Duration.ofMinutes(1));
    assertEquals(Verdict.FAILED, result.verdict());
    assertEquals(0, sleeps.get());
    assertTrue(
        result
            .health()
            .message()
            .startsWith(
                "ConfigMap/apps/settings is NotFound: not found; Deployment/apps/rolling is"
                    + " NotFound: not found; Deployment/apps/stuck is Failed"),
        result.health().message());
  }

  @Test
  void aRolloutInProgressIsInProgress() {
    put("rolling");
    AggregateHealth health = waiter.health(List.of(ROLLING), evaluator);
    assertEquals(Status.InProgress, health.status());
    assertEquals(Verdict.IN_PROGRESS, WaitResult.of(health, T0, T0.plusSeconds(1)).verdict());
  }

  @Test
  void anObjectAnnotatedSkipIsLeftOut() {
    put("ignored", "ready");
    AggregateHealth health = waiter.health(List.of(IGNORED, READY), evaluator);
    assertEquals(Status.Current, health.status());
    assertEquals(1, health.evaluated());
  }

  @Test
  void aKindNotServedIsUnknownWithItsReason() {
    AggregateHealth health = waiter.health(List.of(WIDGET), evaluator);
    assertEquals(Status.InProgress, health.status());
    assertEquals(
        "Widget/apps/w is Unknown: the API server does not serve example.com/v1/Widget"
            + " (KindNotServed)",
        health.message());
  }

  @Test
  void theDeadlineEndsAWaitThatIsNotOverAndOnlyThen() {
    put("rolling");
    AggregateHealth health = waiter.health(List.of(ROLLING), evaluator);
    assertEquals(Verdict.IN_PROGRESS, WaitResult.of(health, T0.minusMillis(1), T0).verdict());
    assertEquals(Verdict.TIMED_OUT, WaitResult.of(health, T0, T0).verdict());
    put("ready");
    AggregateHealth current = waiter.health(List.of(READY), evaluator);
    assertEquals(Verdict.CURRENT, WaitResult.of(current, T0.plusSeconds(9), T0).verdict());
  }

  @Test
  void nothingToWaitForIsCurrent() {
    assertEquals(Verdict.CURRENT, waiter.await(List.of(), evaluator, Duration.ZERO).verdict());
  }

  @Test
  void reasonsAreTheOnesConditionsShow() {
    assertEquals("", WaitReason.NOT_FOUND.reason());
    assertEquals(
        Status.NotFound,
        Lookup.notFound() instanceof Lookup.NotRead n ? n.reason().status("x").status() : null);
    assertEquals("AccessDenied", WaitReason.ACCESS_DENIED.status("m").reason());
    assertEquals("ReadFailed", ((Lookup.NotRead) Lookup.readFailed("refused")).reason().reason());
    assertEquals("cannot read: refused", ((Lookup.NotRead) Lookup.readFailed("refused")).message());
  }

  @Test
  void aSequentialLookAgreesWithAConcurrentOne() {
    put("ready", "stuck");
    List<ObjectRef> refs = List.of(READY, STUCK, SETTINGS, WIDGET);
    assertEquals(waiter.health(refs, evaluator), ApplyWaiter.health(refs, this::find, evaluator));
  }

  private void put(String... names) {
    for (String name : names) {
      cluster.put(name, FIXTURES.get(name));
    }
  }

  private static ObjectRef deployment(String name) {
    return new ObjectRef("apps", "v1", "Deployment", "apps", name);
  }

  private static Map<String, Map<String, Object>> load(String resource) {
    try (InputStream in = ApplyWaiterTest.class.getResourceAsStream(resource)) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      Map<String, Map<String, Object>> byName = new HashMap<>();
      for (String doc : text.split("(?m)^---$")) {
        GenericKubernetesResource object =
            Serialization.unmarshal(doc, GenericKubernetesResource.class);
        byName.put(object.getMetadata().getName(), DesiredObject.asMap(object));
      }
      return byName;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
