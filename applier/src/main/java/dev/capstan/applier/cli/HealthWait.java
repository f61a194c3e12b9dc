package dev.capstan.applier.cli;

import dev.capstan.applier.apply.DesiredObject;
import dev.capstan.applier.apply.Polling;
import dev.capstan.applier.apply.ResourceCatalog;
import dev.capstan.applier.apply.ResourceType;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.ObjectRef;
import dev.capstan.health.Status;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

/** {@code --wait}: polls the applied objects until all are Current, one Failed, or time runs out. */
final class HealthWait {

  private final KubernetesClient client;
  private final Executor executor;
  private final Duration timeout;
  private final HealthEvaluator evaluator = HealthEvaluator.withBuiltinLibrary();

  HealthWait(KubernetesClient client, Executor executor, Duration timeout) {
    this.client = client;
    this.executor = executor;
    this.timeout = timeout;
  }

  boolean await(List<ObjectRef> refs, ResultPrinter printer) {
    ResourceCatalog catalog = new ResourceCatalog(client);
    AtomicReference<AggregateHealth> last = new AtomicReference<>();
    Polling polling = new Polling(java.time.Clock.systemUTC(), Duration.ofSeconds(1), d -> Thread.sleep(d.toMillis()));
    boolean settled =
        polling.until(
            () -> {
              List<Map<String, Object>> live = fetch(refs, catalog);
              if (live.contains(null)) {
                return false; // an object is missing: not healthy yet
              }
              AggregateHealth health = evaluator.aggregate(live);
              last.set(health);
              return health.status() != Status.InProgress;
            },
            timeout);
    AggregateHealth health = last.get();
    if (!settled) {
      String why = health == null ? "some objects do not exist" : health.message();
      printer.line("wait: not healthy after " + timeout + ": " + why);
      return false;
    }
    printer.line(
        health.status() == Status.Current
            ? "wait: all " + health.evaluated() + " objects are Current"
            : "wait: " + health.status() + ": " + health.message());
    return health.status() == Status.Current;
  }

  private List<Map<String, Object>> fetch(List<ObjectRef> refs, ResourceCatalog catalog) {
    List<CompletableFuture<Map<String, Object>>> gets = new ArrayList<>();
    for (ObjectRef ref : refs) {
      gets.add(CompletableFuture.supplyAsync(() -> fetchOne(ref, catalog), executor));
    }
    List<Map<String, Object>> out = new ArrayList<>();
    gets.forEach(g -> out.add(g.join()));
    return out;
  }

  private Map<String, Object> fetchOne(ObjectRef ref, ResourceCatalog catalog) {
    Optional<ResourceType> type = catalog.find(ref.apiVersion(), ref.kind());
    GenericKubernetesResource live = null;
    if (type.isPresent()) {
      var resources = client.genericKubernetesResources(type.get().context());
      live = type.get().namespaced()
          ? resources.inNamespace(ref.namespace()).withName(ref.name()).get()
          : resources.withName(ref.name()).get();
    }
    return live == null ? null : DesiredObject.asMap(live);
  }
}
