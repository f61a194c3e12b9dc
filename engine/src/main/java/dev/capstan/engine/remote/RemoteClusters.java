package dev.capstan.engine.remote;

import dev.capstan.api.common.SecretKeyReference;
import dev.capstan.api.kustomize.KubeConfigReference;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.kube.ApiErrors;
import dev.capstan.kube.SecretEntries;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clients of the remote clusters Kustomizations and HelmReleases act in ({@code
 * spec.kubeConfig}), one instance per kind (an object's key names it within its kind). The
 * kubeconfig Secret (or ConfigMap) is read from the engine's cluster on every use, and the client
 * built from it is kept while the object's resourceVersion, and the service account impersonated,
 * stay the same; a change closes the old client. At most {@code maxClients} are kept: the least
 * recently used is closed beyond that. Whoever else holds a cluster (the health monitor's
 * informers) is told by id when its client is closed. Thread-safe.
 */
public final class RemoteClusters<A> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteClusters.class);

  /** Flux's default keys of the kubeconfig in the Secret, in the order they are tried. */
  static final List<String> DEFAULT_KEYS = List.of("value", "value.yaml");

  /**
   * A remote cluster as a Kustomization or a HelmRelease uses it.
   *
   * @param id names this client of the cluster; a new client gets a new id
   * @param source the Secret or ConfigMap it was built from, for messages
   * @param client the remote cluster with the kubeconfig's own identity
   * @param acting applies, prunes and reads health there, as the service account if one is named
   */
  public record Remote<A>(String id, String source, KubernetesClient client, A acting) {}

  /** What a cached client was built from; any change means a new client. */
  private record Identity(
      String kind,
      String uid,
      String resourceVersion,
      String key,
      Optional<NamespacedName> account) {}

  private record Entry<A>(Identity identity, Remote<A> remote, List<KubernetesClient> clients) {}

  private final KubernetesClient local;
  private final SecretReader secrets;
  private final RemoteClientFactory factory;
  private final Function<KubernetesClient, A> actingFactory;
  private final int maxClients;
  private volatile Consumer<String> onClosed = id -> {};
  private final LinkedHashMap<NamespacedName, Entry<A>> cache =
      new LinkedHashMap<>(16, 0.75f, true);
  private long built;

  /**
   * @param local the engine's own cluster, where the Secrets and ConfigMaps are read
   * @param actingFactory builds the applier, pruner and health reads on a remote client
   */
  public RemoteClusters(
      KubernetesClient local,
      RemoteClientFactory factory,
      Function<KubernetesClient, A> actingFactory,
      int maxClients) {
    this.local = local;
    this.secrets = new SecretReader(local);
    this.factory = factory;
    this.actingFactory = actingFactory;
    this.maxClients = maxClients;
  }

  /** Who to tell (with {@link Remote#id()}) when a remote client was closed. */
  public void onClosed(Consumer<String> listener) {
    this.onClosed = Objects.requireNonNull(listener);
  }

  /**
   * The remote cluster of {@code ks}, acting as {@code account} there when present.
   *
   * @throws RemoteClusterException when the reference cannot be read or used
   */
  public Remote<A> remoteFor(Kustomization ks, Optional<NamespacedName> account) {
    return remoteFor(
        NamespacedName.of(ks),
        Objects.requireNonNull(ks.getSpec().kubeConfig(), "kubeConfig"),
        account);
  }

  /**
   * The remote cluster {@code ref} describes for the object {@code key} (whose namespace holds the
   * Secret or ConfigMap), acting as {@code account} there when present.
   *
   * @throws RemoteClusterException when the reference cannot be read or used
   */
  public Remote<A> remoteFor(
      NamespacedName key, KubeConfigReference ref, Optional<NamespacedName> account) {
    Source source =
        ref.secretRef() != null
            ? secretSource(key.namespace(), ref.secretRef())
            : configMapSource(key.namespace(), ref.configMapRef().name());
    Identity identity =
        new Identity(
            source.kind(),
            source.object().getMetadata().getUid(),
            source.object().getMetadata().getResourceVersion(),
            source.key(),
            account);
    synchronized (cache) {
      Entry<A> entry = cache.get(key);
      if (entry != null && entry.identity().equals(identity)) {
        return entry.remote();
      }
    }
    RemoteConnection connection = source.connection();
    Entry<A> fresh = build(key, identity, connection, account, source.describe());
    List<Entry<A>> closing = new ArrayList<>();
    synchronized (cache) {
      Entry<A> previous = cache.put(key, fresh);
      if (previous != null) {
        closing.add(previous);
      }
      var eldest = cache.entrySet().iterator();
      while (cache.size() > maxClients && eldest.hasNext()) {
        Map.Entry<NamespacedName, Entry<A>> lru = eldest.next();
        LOG.info(
            "closing the client of the remote cluster of {}: more than {} remote clusters",
            lru.getKey(),
            maxClients);
        closing.add(lru.getValue());
        eldest.remove();
      }
    }
    closing.forEach(this::closeEntry);
    return fresh.remote();
  }

  /**
   * Asks the remote API server for its version, with the remote's own identity: a cluster that
   * cannot be reached or refuses the credentials fails here, before anything is applied.
   *
   * @throws RemoteClusterException saying why, without credentials
   */
  public void checkReachable(Remote<A> remote) {
    try {
      remote.client().getKubernetesVersion();
    } catch (KubernetesClientException e) {
      throw new RemoteClusterException(
          "the API server of the remote cluster of "
              + remote.source()
              + (e.getCode() > 0 ? " refused the request: " : " cannot be reached: ")
              + rootCause(e));
    } catch (IllegalStateException e) {
      // Closed meanwhile (its Secret changed, or more remote clusters than the bound): the next try
      // builds another.
      throw new RemoteClusterException(
          "the client of the remote cluster of " + remote.source() + " was closed");
    }
  }

  /** Why a request failed, in a user's words: the HTTP status, or the kind of network failure. */
  static String rootCause(Throwable e) {
    if (e instanceof KubernetesClientException k && k.getCode() > 0) {
      return ApiErrors.httpAnswer(k);
    }
    Throwable root = e;
    for (Throwable cause = e;
        cause != null;
        cause = cause.getCause() == cause ? null : cause.getCause()) {
      if (cause instanceof ConnectException) {
        return "connection refused";
      }
      if (cause instanceof HttpTimeoutException || cause instanceof SocketTimeoutException) {
        return "timed out";
      }
      if (cause instanceof SSLException) {
        return "TLS failed: " + bounded(cause.getMessage());
      }
      if (cause instanceof UnknownHostException) {
        return "unknown host";
      }
      root = cause;
    }
    return bounded(root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage());
  }

  private static String bounded(String message) {
    if (message == null) {
      return "";
    }
    return message.length() > 200 ? message.substring(0, 200) + "…" : message;
  }

  /** The object {@code key} is gone, or no longer names a remote cluster: its client is closed. */
  public void forget(NamespacedName key) {
    Entry<A> entry;
    synchronized (cache) {
      entry = cache.remove(key);
    }
    if (entry != null) {
      closeEntry(entry);
    }
  }

  /** Remote clients kept now (for tests and diagnostics). */
  public int cachedClients() {
    synchronized (cache) {
      return cache.size();
    }
  }

  private Entry<A> build(
      NamespacedName key,
      Identity identity,
      RemoteConnection connection,
      Optional<NamespacedName> account,
      String description) {
    KubernetesClient base = factory.client(connection, Optional.empty());
    List<KubernetesClient> clients = new ArrayList<>(List.of(base));
    KubernetesClient acting = base;
    if (account.isPresent()) {
      acting = factory.client(connection, account.map(RemoteClusters::username));
      clients.add(acting);
    }
    String id;
    synchronized (cache) {
      id = key + "#" + (++built);
    }
    LOG.debug("built a client for the remote cluster of {} ({})", key, id);
    return new Entry<>(
        identity, new Remote<>(id, description, base, actingFactory.apply(acting)), clients);
  }

  private void closeEntry(Entry<A> entry) {
    onClosed.accept(entry.remote().id());
    entry.clients().forEach(KubernetesClient::close);
  }

  static String username(NamespacedName account) {
    return "system:serviceaccount:" + account.namespace() + ":" + account.name();
  }

  // ---- reading the reference ------------------------------------------------------------------

  /**
   * The object a remote cluster is described by (a Secret's key or a ConfigMap), and how to turn it
   * into a connection.
   */
  private record Source(
      String kind, HasMetadata object, String key, Supplier<RemoteConnection> connect) {

    RemoteConnection connection() {
      return connect.get();
    }

    /** The object and key, for messages. */
    String describe() {
      String name =
          kind
              + " '"
              + object.getMetadata().getNamespace()
              + "/"
              + object.getMetadata().getName()
              + "'";
      return key.isEmpty() ? name : name + " key '" + key + "'";
    }
  }

  private Source secretSource(String namespace, SecretKeyReference ref) {
    Secret secret;
    SecretEntries entries;
    try {
      secret = secrets.secret(namespace, ref.name());
      entries = SecretEntries.of(secret);
    } catch (SecretUnavailable e) {
      throw new RemoteClusterException(
          e.getMessage(), e.kind() == SecretUnavailable.Kind.NOT_FOUND);
    }
    String key =
        ref.key() != null && !ref.key().isEmpty()
            ? ref.key()
            : DEFAULT_KEYS.stream().filter(entries::has).findFirst().orElse(DEFAULT_KEYS.get(0));
    String where = entries.where() + " key '" + key + "'";
    byte[] kubeconfig =
        entries
            .bytes(key)
            .orElseThrow(
                () ->
                    new RemoteClusterException(
                        where
                            + " does not exist"
                            + (ref.key() == null ? " (nor key 'value.yaml')" : "")));
    // The parser refuses a kubeconfig over its bound before reading it.
    return new Source("Secret", secret, key, () -> KubeConfigParser.parse(kubeconfig, where));
  }

  private Source configMapSource(String namespace, String name) {
    String where = "ConfigMap '" + namespace + "/" + name + "'";
    ConfigMap map =
        read(() -> local.configMaps().inNamespace(namespace).withName(name).get(), where);
    return new Source(
        "ConfigMap", map, "", () -> TokenAccess.connection(map, where, local, namespace));
  }

  private static <T> T read(Supplier<T> get, String what) {
    T object;
    try {
      object = get.get();
    } catch (KubernetesClientException e) {
      throw new RemoteClusterException("cannot read " + what + ": " + ApiErrors.reason(e));
    }
    if (object == null) {
      throw new RemoteClusterException(what + " does not exist", true);
    }
    return object;
  }

  @Override
  public void close() {
    List<Entry<A>> all;
    synchronized (cache) {
      all = List.copyOf(cache.values());
      cache.clear();
    }
    all.forEach(this::closeEntry);
  }
}
