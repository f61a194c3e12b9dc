package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.kube.TokenRefresh;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses who acts for a Kustomization. With {@code spec.serviceAccountName} (or the engine's
 * default service account) the cluster is written and read by a client impersonating that service
 * account, so a tenant cannot make the engine do what its service account may not. Clients are kept
 * per service account and closed once unused for {@code idleTimeout}.
 */
public final class ServiceAccountClients implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceAccountClients.class);

  private final Acting engineActing;
  private final Function<KubernetesClient, Acting> actingFactory;
  private final Optional<String> defaultServiceAccount;
  private final Clock clock;
  private final Duration idleTimeout;
  private final Map<NamespacedName, Entry> cache = new HashMap<>();
  // The engine's event loops for every tenant's client: a client of its own would start threads of
  // its own.
  private final HttpClient.Factory tenantHttp;

  private static final class Entry {
    final Acting acting;
    Instant lastUsed;

    Entry(Acting acting, Instant lastUsed) {
      this.acting = acting;
      this.lastUsed = lastUsed;
    }
  }

  /**
   * @param engineActing acting as the engine itself, for Kustomizations without a service account
   * @param actingFactory builds the applier, pruner and health reads on an impersonating client
   * @param defaultServiceAccount applies to Kustomizations that name none
   * @param tenantHttp the HTTP clients of the impersonating clients (the engine's event loops,
   *     which their owner closes)
   */
  public ServiceAccountClients(
      Acting engineActing,
      Function<KubernetesClient, Acting> actingFactory,
      Optional<String> defaultServiceAccount,
      Clock clock,
      Duration idleTimeout,
      HttpClient.Factory tenantHttp) {
    this.engineActing = engineActing;
    this.tenantHttp = tenantHttp;
    this.actingFactory = actingFactory;
    this.defaultServiceAccount = defaultServiceAccount.filter(s -> !s.isBlank());
    this.clock = clock;
    this.idleTimeout = idleTimeout;
  }

  /** The service account a Kustomization acts as, if any: its own, else the default. */
  public Optional<NamespacedName> serviceAccountOf(Kustomization ks) {
    String named = ks.getSpec() == null ? null : ks.getSpec().serviceAccountName();
    return serviceAccountOf(ks.getMetadata().getNamespace(), named);
  }

  /**
   * The service account an object in {@code namespace} naming {@code named} (null or blank: none)
   * acts as: that one, else the default.
   */
  public Optional<NamespacedName> serviceAccountOf(String namespace, String named) {
    Optional<String> name =
        named == null || named.isBlank() ? defaultServiceAccount : Optional.of(named);
    return name.map(n -> new NamespacedName(namespace, n));
  }

  /** Who applies, prunes and reads health for {@code ks}. */
  public Acting actingFor(Kustomization ks) {
    return actingAs(serviceAccountOf(ks));
  }

  /** Who applies, prunes and reads health as {@code account}; empty: the engine itself. */
  public Acting actingAs(Optional<NamespacedName> account) {
    if (account.isEmpty()) {
      return engineActing;
    }
    List<Acting> idle;
    Acting acting;
    synchronized (cache) {
      Instant now = clock.instant();
      idle = removeIdle(now, account.get());
      Entry entry =
          cache.computeIfAbsent(
              account.get(),
              sa ->
                  new Entry(
                      actingFactory.apply(impersonating(engineActing.client(), sa, tenantHttp)),
                      now));
      entry.lastUsed = now;
      acting = entry.acting;
    }
    idle.forEach(a -> a.client().close());
    return acting;
  }

  /** Service accounts with a client kept (for tests and diagnostics). */
  public int cachedClients() {
    synchronized (cache) {
      return cache.size();
    }
  }

  private List<Acting> removeIdle(Instant now, NamespacedName keep) {
    List<Acting> idle = new ArrayList<>();
    cache
        .entrySet()
        .removeIf(
            e -> {
              boolean unused =
                  !e.getKey().equals(keep)
                      && Duration.between(e.getValue().lastUsed, now).compareTo(idleTimeout) > 0;
              if (unused) {
                LOG.debug(
                    "closing the client of service account {}: unused for {}",
                    e.getKey(),
                    idleTimeout);
                idle.add(e.getValue().acting);
              }
              return unused;
            });
    return idle;
  }

  /**
   * A client with the engine's connection settings that impersonates {@code account}. No groups are
   * sent: for a service account user the API server adds {@code system:serviceaccounts} and {@code
   * system:serviceaccounts:<namespace>} itself, whereas naming them would need the right to
   * impersonate groups, which cannot be limited to those two and would let the engine act as any
   * group.
   */
  static KubernetesClient impersonating(
      KubernetesClient engine, NamespacedName account, HttpClient.Factory http) {
    Config config =
        new ConfigBuilder(engine.getConfiguration())
            .withImpersonateUsername(username(account))
            .withImpersonateGroups()
            .build();
    return new KubernetesClientBuilder()
        .withHttpClientFactory(http)
        .withConfig(config)
        .withHttpClientBuilderConsumer(TokenRefresh.forConfig(config))
        .build();
  }

  static String username(NamespacedName account) {
    return "system:serviceaccount:" + account.namespace() + ":" + account.name();
  }

  @Override
  public void close() {
    List<Acting> all;
    synchronized (cache) {
      all = cache.values().stream().map(e -> e.acting).toList();
      cache.clear();
    }
    all.forEach(a -> a.client().close());
  }
}
