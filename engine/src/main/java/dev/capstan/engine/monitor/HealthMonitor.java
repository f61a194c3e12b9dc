package dev.capstan.engine.monitor;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.apply.ResourceType;
import dev.capstan.applier.wait.Lookup;
import dev.capstan.applier.wait.WaitReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.HealthTracking;
import dev.capstan.engine.kustomization.HealthTracking.RemoteCluster;
import dev.capstan.engine.kustomization.HealthTracking.ServiceAccount;
import dev.capstan.engine.shard.WriteFence;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.GroupKind;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@code Healthy} condition of every owner of one kind ({@link HealthOwners}:
 * Kustomizations, HelmReleases) true to the cluster between reconciles. Objects are watched through
 * one shared informer per kind, selected by the owners' ownership label; a change of an object
 * re-evaluates the health of its owner's inventory from the informer caches and tells the owner
 * when it changed. While a reconcile waits for health, the monitor wakes that reconcile instead.
 *
 * <p>Objects of an owner that applies to a remote cluster ({@code spec.kubeConfig}) are watched by
 * informers of their own on that cluster, with the kubeconfig's identity; they stop when no
 * inventory needs them or the remote client is closed.
 *
 * <p>The informers read with the engine's identity. For an owner that acts as a service account, an
 * object's health is reported only if that account may get its kind in its namespace; otherwise the
 * object is Unknown and the message says what the account may not read.
 */
public final class HealthMonitor implements HealthTracking, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HealthMonitor.class);
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  /** How long an answer about a service account's rights is used before asking again. */
  private static final Duration ACCESS_LIFETIME = Duration.ofMinutes(5);

  /** The id of the engine's own cluster among the watched clusters. */
  private static final String LOCAL = "";

  /**
   * The objects watched for one owner, how their health is judged, who may read it, and in which
   * cluster ({@link #LOCAL} or a remote cluster's id).
   */
  private record Tracked(
      List<ObjectRef> objects,
      HealthEvaluator evaluator,
      Optional<ServiceAccount> readAs,
      String cluster,
      Map<GroupKind, String> kinds) {}

  private final HealthOwners owners;
  private final ScheduledExecutorService scheduler;
  private final Duration debounce;

  /** The informers of each watched cluster, by id; the engine's own is always there. */
  private final Map<String, KindInformers> clusters = new HashMap<>();

  private final ReadAccess access;
  private final ObjectMapper mapper = new ObjectMapper();
  private final Map<NamespacedName, Tracked> tracked = new HashMap<>();
  private final KindDemand demand = new KindDemand();
  private final Set<NamespacedName> scheduled = ConcurrentHashMap.newKeySet();
  private final Map<NamespacedName, AggregateHealth> written = new ConcurrentHashMap<>();
  private volatile Consumer<NamespacedName> wakeUp = key -> {};

  /**
   * @param scheduler runs evaluations; one thread is enough
   * @param debounce how long to gather events before evaluating (a rollout sends many)
   */
  public HealthMonitor(
      KubernetesClient client,
      HealthOwners owners,
      Clock clock,
      ScheduledExecutorService scheduler,
      Duration debounce) {
    this.owners = owners;
    this.scheduler = scheduler;
    this.debounce = debounce;
    clusters.put(LOCAL, informers(client));
    this.access = new ReadAccess(new SelfSubjectAccessReviews(), clock, ACCESS_LIFETIME);
  }

  /** Who to tell when an object of an owner that is waiting for health changed. */
  public void onWaitingObjectChange(Consumer<NamespacedName> listener) {
    this.wakeUp = listener;
  }

  @Override
  public synchronized void track(
      NamespacedName key,
      List<ObjectRef> objects,
      HealthEvaluator evaluator,
      Optional<ServiceAccount> readAs,
      Optional<RemoteCluster> cluster,
      Optional<AggregateHealth> told) {
    String id = cluster.map(RemoteCluster::id).orElse(LOCAL);
    cluster.ifPresent(c -> clusters.computeIfAbsent(c.id(), i -> informers(c.client())));
    Tracked now =
        new Tracked(List.copyOf(objects), evaluator, readAs, id, KindDemand.kindsOf(objects));
    Tracked before = tracked.put(key, now);
    if (before != null) {
      demand.remove(before.cluster(), before.kinds());
    }
    demand.add(id, now.kinds());
    told.ifPresentOrElse(health -> written.put(key, health), () -> written.remove(key));
    retainInformers();
    schedule(key);
  }

  @Override
  public synchronized void untrack(NamespacedName key) {
    Tracked before = tracked.remove(key);
    if (before != null) {
      demand.remove(before.cluster(), before.kinds());
      written.remove(key);
      retainInformers();
    }
  }

  @Override
  public void rewriting(NamespacedName key) {
    written.remove(key);
  }

  @Override
  public void reevaluate(NamespacedName key) {
    schedule(key);
  }

  @Override
  public synchronized void clusterClosed(String id) {
    if (LOCAL.equals(id)) {
      return;
    }
    tracked
        .entrySet()
        .removeIf(
            e -> {
              boolean there = e.getValue().cluster().equals(id);
              if (there) {
                demand.remove(id, e.getValue().kinds());
                written.remove(e.getKey());
              }
              return there;
            });
    retainInformers();
  }

  @Override
  public Optional<AggregateHealth> watched(
      NamespacedName key, List<ObjectRef> objects, HealthEvaluator evaluator) {
    Tracked t;
    synchronized (this) {
      t = tracked.get(key);
      if (t == null
          || t.readAs().isPresent()
          || !LOCAL.equals(t.cluster())
          || t.evaluator() != evaluator
          || !Set.copyOf(t.objects()).equals(Set.copyOf(objects))
          || !t.objects().stream().allMatch(clusters.get(LOCAL)::watching)) {
        return Optional.empty();
      }
    }
    return fromCaches(key, t, Map.of());
  }

  /** The kinds watched right now (one informer each), of every cluster. */
  public synchronized Set<String> watchedKinds() {
    Set<String> kinds = new TreeSet<>();
    clusters
        .values()
        .forEach(informers -> informers.running().forEach(k -> kinds.add(k.toString())));
    return kinds;
  }

  /**
   * Runs exactly the informers the tracked inventories need; a remote cluster no one needs is let
   * go.
   */
  private void retainInformers() {
    for (var it = clusters.entrySet().iterator(); it.hasNext(); ) {
      var cluster = it.next();
      Map<GroupKind, String> kinds = demand.needed(cluster.getKey());
      if (kinds.isEmpty() && !LOCAL.equals(cluster.getKey())) {
        cluster.getValue().close();
        it.remove();
      } else {
        cluster.getValue().retain(kinds);
      }
    }
  }

  private KindInformers informers(KubernetesClient client) {
    return new KindInformers(client, nameLabel(), this::onChange);
  }

  private String nameLabel() {
    return owners.group() + "/name";
  }

  private void onChange(GenericKubernetesResource object) {
    Map<String, String> labels = object.getMetadata().getLabels();
    String namespaceLabel = owners.group() + "/namespace";
    if (labels == null || labels.get(nameLabel()) == null || labels.get(namespaceLabel) == null) {
      return;
    }
    schedule(new NamespacedName(labels.get(namespaceLabel), labels.get(nameLabel())));
  }

  private void schedule(NamespacedName key) {
    if (scheduled.add(key)) {
      scheduler.schedule(() -> evaluate(key), debounce.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void evaluate(NamespacedName key) {
    scheduled.remove(key);
    try {
      if (owners.waiting(key)) {
        wakeUp.accept(key);
        return;
      }
      Optional<AggregateHealth> health = healthOf(key);
      if (health.isEmpty() || health.get().equals(written.get(key))) {
        return;
      }
      switch (owners.tell(key, health.get())) {
        case WRITTEN -> written.put(key, health.get());
        // not written: the next evaluation reads the status again, which may be stale
        case UNCHANGED -> written.remove(key);
      }
    } catch (WriteFence.Refused e) {
      LOG.debug("{}: not written: {}", key, e.getMessage());
    } catch (KubernetesClientException e) {
      LOG.warn("{}: cannot write the Healthy condition: {}", key, e.getMessage());
      schedule(key);
    } catch (RuntimeException e) {
      LOG.error("{}: health evaluation failed", key, e);
    }
  }

  /** The health of a tracked inventory from the caches; empty until every kind has synced. */
  private Optional<AggregateHealth> healthOf(NamespacedName key) {
    Tracked t;
    Map<GroupKind, ResourceType> types;
    synchronized (this) {
      t = tracked.get(key);
      if (t == null) {
        return Optional.empty();
      }
      KindInformers informers = clusters.get(t.cluster());
      types = t.readAs().isPresent() && informers != null ? informers.types() : Map.of();
    }
    // Asking the API server takes a request: not while holding the lock reconciles track with.
    return fromCaches(key, t, unreadable(t, types));
  }

  /** The objects of {@code t} its service account may not read, each with the lookup saying so. */
  private Map<ObjectRef, Lookup> unreadable(Tracked t, Map<GroupKind, ResourceType> types) {
    if (t.readAs().isEmpty()) {
      return Map.of();
    }
    Map<ObjectRef, Lookup> unreadable = new HashMap<>();
    for (ObjectRef ref : t.objects()) {
      ResourceType type = types.get(ref.groupKind());
      if (type == null) {
        continue; // not served: reported as such
      }
      ReadAccess.Decision decision =
          access.mayGet(
              t.cluster(),
              t.readAs().get(),
              type.group(),
              type.plural(),
              type.namespaced() ? ref.namespace() : "");
      if (!decision.allowed()) {
        WaitReason reason =
            decision.verdict() == ReadAccess.Verdict.DENIED
                ? WaitReason.ACCESS_DENIED
                : WaitReason.ACCESS_CHECK_FAILED;
        unreadable.put(ref, Lookup.notRead(reason, decision.message()));
      }
    }
    return unreadable;
  }

  private synchronized Optional<AggregateHealth> fromCaches(
      NamespacedName key, Tracked t, Map<ObjectRef, Lookup> unreadable) {
    KindInformers informers = clusters.get(t.cluster());
    if (tracked.get(key) != t || informers == null) {
      return Optional.empty(); // replaced (and evaluated again) or untracked meanwhile
    }
    for (ObjectRef ref : t.objects()) {
      GroupKind kind = ref.groupKind();
      if (informers.watched(kind) && !unreadable.containsKey(ref) && !informers.synced(kind)) {
        schedule(key);
        return Optional.empty();
      }
    }
    return Optional.of(
        ResourceManager.health(
            t.objects(), ref -> fromCache(informers, unreadable, ref), t.evaluator()));
  }

  /** One object as the caches have it, or why its health is decided without it. */
  private Lookup fromCache(
      KindInformers informers, Map<ObjectRef, Lookup> unreadable, ObjectRef ref) {
    GroupKind kind = ref.groupKind();
    if (!informers.watched(kind)) {
      return informers
          .refusal(kind)
          .map(refusal -> Lookup.notRead(WaitReason.WATCH_FAILED, refusal))
          .orElseGet(() -> Lookup.kindNotServed(ref.apiVersion(), ref.kind()));
    }
    Lookup denied = unreadable.get(ref);
    if (denied != null) {
      return denied;
    }
    return informers
        .get(ref)
        .map(live -> Lookup.found(mapper.convertValue(live, MAP)))
        .orElseGet(Lookup::notFound);
  }

  @Override
  public synchronized void close() {
    tracked.clear();
    clusters.values().forEach(KindInformers::close);
    clusters.clear();
  }
}
