package dev.capstan.applier;

import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.apply.DiscoveryCache;
import dev.capstan.applier.apply.KeptDiscovery;
import dev.capstan.applier.apply.RecentDiscovery;
import dev.capstan.applier.apply.StagedApplier;
import dev.capstan.applier.common.Polling;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.concurrent.Executor;

/**
 * The applier's entry point: staged server-side apply of one revision. Objects within a stage go to
 * the API server concurrently on the executor passed in, which bounds the concurrency.
 */
public final class Applier {

  private final StagedApplier staged;

  public Applier(KubernetesClient client, Executor executor) {
    this(client, executor, Polling.system());
  }

  /**
   * An applier that applies again and again, as the engine does: the answers of discovery for
   * built-in groups are believed for {@link RecentDiscovery#TTL}.
   */
  public Applier(KubernetesClient client, Executor executor, Polling polling) {
    this(client, executor, polling, new RecentDiscovery(RecentDiscovery.TTL, Clock.systemUTC()));
  }

  /** An applier that keeps discovery answers on disk between runs (the command line). */
  public Applier(KubernetesClient client, Executor executor, DiscoveryCache discovery) {
    this(client, executor, Polling.system(), discovery);
  }

  public Applier(
      KubernetesClient client, Executor executor, Polling polling, KeptDiscovery discovery) {
    this.staged = new StagedApplier(client, executor, polling, discovery);
  }

  public ApplyResult apply(ApplyRequest request) {
    return staged.apply(request);
  }
}
