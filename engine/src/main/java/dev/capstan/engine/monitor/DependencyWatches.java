package dev.capstan.engine.monitor;

import dev.capstan.applier.apply.ResourceType;
import dev.capstan.engine.cache.MetadataOnly;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.DependencyWatching;
import dev.capstan.kube.GroupKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes Kustomizations that wait for objects they depend on. One informer per depended-on kind
 * ({@link InformersByKind}), shared by all Kustomizations, started when a first Kustomization waits
 * for an object of that kind and stopped when none does any more; an event on an object wakes the
 * Kustomizations waiting for it, found through an index by object key.
 *
 * <p>The informers watch with the engine's identity and keep no object contents (events are all
 * they are for). Whether a Kustomization may read the object is decided when it reads it, as its
 * service account: a wake-up tells it nothing. Where the engine itself may not list and watch a
 * kind (the multi-tenant install), each waiting Kustomization watches the single objects it waits
 * for with the client it reads them with (its service account); where that is refused too, it looks
 * again at its retryInterval. Thread-safe.
 */
public final class DependencyWatches implements DependencyWatching, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DependencyWatches.class);

  /** The key of the index: one object. */
  private record ObjectKey(GroupKind kind, String namespace, String name) {
    static ObjectKey of(Awaited awaited) {
      return new ObjectKey(awaited.type().groupKind(), awaited.namespace(), awaited.name());
    }
  }

  private final KubernetesClient client;
  private final Map<NamespacedName, Set<Awaited>> awaiting = new HashMap<>();
  private final Map<ObjectKey, Set<NamespacedName>> dependents = new HashMap<>();
  private final InformersByKind informers = new InformersByKind("dependencies");
  private final Set<GroupKind> denied = new HashSet<>();
  private final Map<NamespacedName, KubernetesClient> readers = new HashMap<>();
  private final Map<NamespacedName, List<Watch>> objectWatches = new HashMap<>();
  private volatile Consumer<NamespacedName> wakeUp = key -> {};

  public DependencyWatches(KubernetesClient client) {
    this.client = client;
  }

  /** Who to tell when an object a Kustomization waits for changed. */
  public void onChange(Consumer<NamespacedName> listener) {
    this.wakeUp = listener;
  }

  @Override
  public synchronized void await(
      NamespacedName dependent, Set<Awaited> objects, KubernetesClient reader) {
    Set<Awaited> next = Set.copyOf(objects);
    Set<Awaited> previous = awaiting.put(dependent, next);
    KubernetesClient previousReader = readers.put(dependent, reader);
    if (next.equals(previous) && reader == previousReader) {
      return;
    }
    unindex(dependent, previous);
    closeObjectWatches(dependent);
    next.forEach(
        a -> dependents.computeIfAbsent(ObjectKey.of(a), k -> new HashSet<>()).add(dependent));
    retain();
    next.stream()
        .filter(a -> !denied.contains(a.type().groupKind()))
        .forEach(a -> informers.watch(a.type().groupKind(), k -> Optional.of(start(a.type()))));
    watchDeniedObjects(dependent);
  }

  @Override
  public synchronized void release(NamespacedName dependent) {
    Set<Awaited> previous = awaiting.remove(dependent);
    readers.remove(dependent);
    closeObjectWatches(dependent);
    if (previous != null) {
      unindex(dependent, previous);
      retain();
    }
  }

  /** The single objects watched for dependents the engine cannot watch for (tests, diagnostics). */
  public synchronized int objectWatchCount() {
    return objectWatches.values().stream().mapToInt(List::size).sum();
  }

  /**
   * Watches, with the dependent's own client, each object it waits for of a kind the engine may not
   * watch.
   */
  private void watchDeniedObjects(NamespacedName dependent) {
    KubernetesClient reader = readers.get(dependent);
    Set<Awaited> objects = awaiting.getOrDefault(dependent, Set.of());
    List<Watch> watches = objectWatches.computeIfAbsent(dependent, d -> new ArrayList<>());
    for (Awaited a : objects) {
      if (reader != null && denied.contains(a.type().groupKind())) {
        watchObject(dependent, reader, a).ifPresent(watches::add);
      }
    }
    if (watches.isEmpty()) {
      objectWatches.remove(dependent);
    }
  }

  private Optional<Watch> watchObject(
      NamespacedName dependent, KubernetesClient reader, Awaited a) {
    var resources = reader.genericKubernetesResources(a.type().context());
    var object =
        a.type().namespaced()
            ? resources.inNamespace(a.namespace()).withName(a.name())
            : resources.withName(a.name());
    try {
      return Optional.of(
          object.watch(
              new Watcher<>() {
                @Override
                public void eventReceived(Action action, GenericKubernetesResource resource) {
                  wakeUp.accept(dependent);
                }

                @Override
                public void onClose(WatcherException cause) {
                  // Ended by the server: the retryInterval still applies, and the next reconcile
                  // watches again.
                  LOG.debug(
                      "the watch of {} for {} ended: {}",
                      ObjectKey.of(a),
                      dependent,
                      cause.getMessage());
                }
              }));
    } catch (KubernetesClientException e) {
      LOG.debug(
          "{} cannot watch {} (its retryInterval applies): {}",
          dependent,
          ObjectKey.of(a),
          e.getMessage());
      return Optional.empty();
    }
  }

  private void closeObjectWatches(NamespacedName dependent) {
    List<Watch> watches = objectWatches.remove(dependent);
    if (watches != null) {
      watches.forEach(Watch::close);
    }
  }

  /** The engine may not watch {@code kind}: its dependents watch their objects themselves. */
  private synchronized void deny(GroupKind kind) {
    if (!denied.add(kind)) {
      return;
    }
    informers.remove(kind).ifPresent(SharedIndexInformer::stop);
    awaiting
        .keySet()
        .forEach(
            dependent -> {
              closeObjectWatches(dependent);
              watchDeniedObjects(dependent);
            });
  }

  /** The kinds watched now, as {@code Kind.group} ({@code Kind} for the core group). */
  public synchronized Set<String> watchedKinds() {
    Set<String> kinds = new TreeSet<>();
    informers.kinds().forEach(k -> kinds.add(k.toString()));
    return kinds;
  }

  private void unindex(NamespacedName dependent, Set<Awaited> previous) {
    if (previous == null) {
      return;
    }
    for (Awaited a : previous) {
      ObjectKey key = ObjectKey.of(a);
      Set<NamespacedName> waiting = dependents.get(key);
      if (waiting != null && waiting.remove(dependent) && waiting.isEmpty()) {
        dependents.remove(key);
      }
    }
  }

  /** Stops the informers of kinds no Kustomization waits for any more. */
  private void retain() {
    Set<GroupKind> needed = new HashSet<>();
    dependents.keySet().forEach(k -> needed.add(k.kind()));
    informers.retainOnly(needed);
  }

  private SharedIndexInformer<GenericKubernetesResource> start(ResourceType type) {
    GroupKind kind = type.groupKind();
    var resources = client.genericKubernetesResources(type.context());
    SharedIndexInformer<GenericKubernetesResource> informer =
        type.namespaced()
            ? resources.inAnyNamespace().runnableInformer(0)
            : resources.runnableInformer(0);
    informer.itemStore(new MetadataOnly());
    informer.addEventHandler(handler(kind));
    informer.exceptionHandler(
        (started, error) -> {
          if (refused(error)) {
            // Not retried: the engine's rights do not change by asking again.
            LOG.info(
                "the engine may not watch {}: each Kustomization waiting for one watches it as its"
                    + " service account",
                kind);
            // Off this informer's own thread, which stopping it would wait for.
            CompletableFuture.runAsync(() -> deny(kind));
            return false;
          }
          return true;
        });
    informer.start();
    LOG.debug("watching {} for dependencies", kind);
    return informer;
  }

  /** Whether {@code error} (possibly wrapped, as the informer hands it over) is a 401 or 403. */
  private static boolean refused(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof KubernetesClientException e && (e.getCode() == 401 || e.getCode() == 403)) {
        return true;
      }
    }
    return false;
  }

  private ResourceEventHandler<GenericKubernetesResource> handler(GroupKind kind) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource obj) {
        changed(kind, obj);
      }

      @Override
      public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
        changed(kind, newObj);
      }

      @Override
      public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
        changed(kind, obj);
      }
    };
  }

  private void changed(GroupKind kind, GenericKubernetesResource object) {
    if (object.getMetadata() == null) {
      return;
    }
    String namespace =
        object.getMetadata().getNamespace() == null ? "" : object.getMetadata().getNamespace();
    List<NamespacedName> waiting;
    synchronized (this) {
      waiting =
          List.copyOf(
              dependents.getOrDefault(
                  new ObjectKey(kind, namespace, object.getMetadata().getName()), Set.of()));
    }
    waiting.forEach(wakeUp);
  }

  @Override
  public synchronized void close() {
    informers.close();
    List.copyOf(objectWatches.keySet()).forEach(this::closeObjectWatches);
    readers.clear();
    awaiting.clear();
    dependents.clear();
  }
}
