package dev.capstan.engine.e2e;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.conditions.KustomizationStatuses;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every Ready condition a Kustomization had while watched, with when the watch saw it: states that
 * last a moment (a wait canceled, the next reconcile already under way) are seen too.
 */
final class ReadySeen implements AutoCloseable {
  /** One Ready condition as seen. */
  record Seen(Instant at, String status, String reason, String message) {}

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final Watch watch;

  ReadySeen(EngineFixture engine, String name) {
    this.watch =
        engine
            .client
            .resources(Kustomization.class)
            .inNamespace(engine.namespace)
            .withName(name)
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, Kustomization ks) {
                    Optional<Condition> ready =
                        KustomizationStatuses.condition(ks.getStatus(), "Ready");
                    ready.ifPresent(
                        c ->
                            seen.add(
                                new Seen(
                                    Instant.now(), c.getStatus(), c.getReason(), c.getMessage())));
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                });
  }

  /** The first condition seen with this reason. */
  Optional<Seen> first(String reason) {
    return seen.stream().filter(s -> reason.equals(s.reason())).findFirst();
  }

  List<Seen> all() {
    return List.copyOf(seen);
  }

  @Override
  public void close() {
    watch.close();
  }
}
