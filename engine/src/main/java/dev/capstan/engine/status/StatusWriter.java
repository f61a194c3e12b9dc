package dev.capstan.engine.status;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.BucketStatus;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartStatus;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.HelmRepositoryStatus;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.OCIRepositoryStatus;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.ClusterView;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.shard.WriteFence;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one place statuses are written: server-side apply of the status subresource with its own
 * field manager, so status writes never mix with the objects' own (field manager {@code capstan}).
 * Writes of one object are serialized, and a status equal to the one already there is not written
 * at all. Each write asks the fence first: a replica that lost an object writes nothing for it.
 */
public final class StatusWriter implements StatusWrites {
  /** Field manager of every status write. */
  public static final String FIELD_MANAGER = "capstan-status";

  private static final int CONFLICT_ATTEMPTS = 5;

  private final KubernetesClient client;
  private final ClusterView cache;
  private final PipelineObserver observer;
  private final WriteFence fence;
  private final Map<Key, Object> locks = new ConcurrentHashMap<>();

  /** The resourceVersion each object had after this writer's last write to it. */
  private final Map<Key, String> writtenVersions = new ConcurrentHashMap<>();

  /**
   * @param cache where {@link #update} reads a Kustomization first, before asking the API server
   * @param observer told of every status written (events are derived from the changes)
   */
  public StatusWriter(KubernetesClient client, ClusterView cache, PipelineObserver observer) {
    this(client, cache, observer, WriteFence.NONE);
  }

  /**
   * @param fence asked right before each write ({@link WriteFence.Refused} propagates, nothing is
   *     written)
   */
  public StatusWriter(
      KubernetesClient client, ClusterView cache, PipelineObserver observer, WriteFence fence) {
    this.client = client;
    this.cache = cache;
    this.observer = observer;
    this.fence = fence;
  }

  /** Writes a Kustomization's status unless it is unchanged; returns the status now in place. */
  @Override
  public KustomizationStatus write(Kustomization current, KustomizationStatus next) {
    writeUnlessEqual(current, next, Kustomization::new, observer::statusWritten);
    return next;
  }

  /** Writes a GitRepository's status unless it is unchanged. */
  public void write(GitRepository current, GitRepositoryStatus next) {
    writeUnlessEqual(current, next, GitRepository::new, observer::statusWritten);
  }

  /** Writes an OCIRepository's status unless it is unchanged. */
  public void write(OCIRepository current, OCIRepositoryStatus next) {
    writeUnlessEqual(current, next, OCIRepository::new, observer::statusWritten);
  }

  /** Writes a HelmChart's status unless it is unchanged. */
  public void write(HelmChart current, HelmChartStatus next) {
    writeUnlessEqual(current, next, HelmChart::new, observer::statusWritten);
  }

  /** Writes a HelmRepository's status unless it is unchanged. */
  public void write(HelmRepository current, HelmRepositoryStatus next) {
    writeUnlessEqual(current, next, HelmRepository::new, observer::statusWritten);
  }

  /** Writes a HelmRelease's status unless it is unchanged. */
  public void write(HelmRelease current, HelmReleaseStatus next) {
    writeUnlessEqual(current, next, HelmRelease::new, (before, after) -> {});
  }

  /**
   * {@code cached} if it has seen this writer's last status write to it; else the HelmRelease read
   * live (null when it is gone). A reconcile on a cache behind that write would take the release it
   * recorded for another client's.
   */
  public HelmRelease current(HelmRelease cached) {
    return readIfBehind(cached);
  }

  @Override
  public Kustomization current(Kustomization cached) {
    return readIfBehind(cached);
  }

  /**
   * {@code cached}, or the object read live when {@code cached} has not seen this writer's last
   * write to it (null when it is gone); the live one's version is remembered as the newest known.
   */
  private <R extends HasMetadata> R readIfBehind(R cached) {
    if (seenOwnLastWrite(cached)) {
      return cached;
    }
    @SuppressWarnings("unchecked")
    Class<R> type = (Class<R>) cached.getClass();
    R live =
        client
            .resources(type)
            .inNamespace(cached.getMetadata().getNamespace())
            .withName(cached.getMetadata().getName())
            .get();
    if (live != null) {
      writtenVersions.put(Key.of(live), live.getMetadata().getResourceVersion());
    }
    return live;
  }

  /** Writes a Bucket's status unless it is unchanged. */
  public void write(Bucket current, BucketStatus next) {
    writeUnlessEqual(current, next, Bucket::new, observer::statusWritten);
  }

  /**
   * Writes {@code next} as the status of {@code current} unless it is already, sets it on {@code
   * current} and tells {@code written} of it with a copy of the object as it was ({@code empty}
   * makes one).
   */
  private <S, T, R extends CustomResource<S, T>> void writeUnlessEqual(
      R current, T next, Supplier<R> empty, BiConsumer<R, R> written) {
    if (Objects.equals(current.getStatus(), next)) {
      return;
    }
    synchronized (lock(current)) {
      apply(current, next, null);
    }
    R before = withStatus(current, current.getStatus(), empty);
    current.setStatus(next);
    written.accept(before, current);
  }

  /**
   * Reads the Kustomization, changes its status, and writes it back if it changed, guarded by its
   * resourceVersion so that a concurrent reconcile's status is never overwritten with a stale one.
   * Returns false when the Kustomization does not exist. The first read is from the cache (one GET
   * less per write); a conflict means the cache was behind, and the retry reads the API server.
   */
  public boolean update(NamespacedName key, Function<Kustomization, KustomizationStatus> change) {
    return update(
        Kustomization.class,
        key,
        cache::kustomization,
        change,
        (live, next) -> observer.statusWritten(live, withStatus(live, next, Kustomization::new)));
  }

  /**
   * As {@link #update(NamespacedName, Function)}, for a HelmRelease; it is read from the API server
   * (the engine keeps no cache of HelmReleases this writer can read).
   */
  public boolean updateRelease(
      NamespacedName key, Function<HelmRelease, HelmReleaseStatus> change) {
    return update(HelmRelease.class, key, k -> Optional.empty(), change, (live, next) -> {});
  }

  private <T, R extends CustomResource<?, T>> boolean update(
      Class<R> type,
      NamespacedName key,
      Function<NamespacedName, Optional<R>> cached,
      Function<R, T> change,
      BiConsumer<R, T> written) {
    for (int attempt = 1; ; attempt++) {
      Optional<R> fromCache =
          attempt == 1 ? cached.apply(key).filter(this::seenOwnLastWrite) : Optional.empty();
      Optional<R> live =
          fromCache.isPresent()
              ? fromCache
              : Optional.ofNullable(
                  client.resources(type).inNamespace(key.namespace()).withName(key.name()).get());
      if (live.isEmpty()) {
        return false;
      }
      T next = change.apply(live.get());
      if (Objects.equals(live.get().getStatus(), next)) {
        return true;
      }
      try {
        synchronized (lock(live.get())) {
          apply(live.get(), next, live.get().getMetadata().getResourceVersion());
        }
        written.accept(live.get(), next);
        return true;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= CONFLICT_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /** A copy of the object (sharing its metadata and spec) with another status. */
  private static <S, T, R extends CustomResource<S, T>> R withStatus(
      R object, T status, Supplier<R> empty) {
    R copy = empty.get();
    copy.setMetadata(object.getMetadata());
    copy.setSpec(object.getSpec());
    copy.setStatus(status);
    return copy;
  }

  /** Drops what this writer keeps about a deleted object. */
  @Override
  public void forget(HasMetadata object) {
    locks.remove(Key.of(object));
    writtenVersions.remove(Key.of(object));
  }

  /**
   * Whether a cached object is no older than this writer's own last write to it: a cache that has
   * not seen that write yet could make a stale status look current.
   */
  private boolean seenOwnLastWrite(HasMetadata cached) {
    String written = writtenVersions.get(Key.of(cached));
    return written == null || written.equals(cached.getMetadata().getResourceVersion());
  }

  private void apply(HasMetadata object, Object status, String resourceVersion) {
    fence.check(object);
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", object.getMetadata().getName());
    metadata.put("namespace", object.getMetadata().getNamespace());
    if (resourceVersion != null) {
      metadata.put("resourceVersion", resourceVersion);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("apiVersion", object.getApiVersion());
    body.put("kind", object.getKind());
    body.put("metadata", metadata);
    body.put("status", status);
    PatchContext context =
        new PatchContext.Builder()
            .withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager(FIELD_MANAGER)
            .withForce(true)
            .build();
    String json = client.getKubernetesSerialization().asJson(body);
    @SuppressWarnings("unchecked")
    Class<HasMetadata> type = (Class<HasMetadata>) object.getClass();
    // Named by the object in hand, not by name: a patch of a name alone reads the object first.
    HasMetadata written =
        client
            .resources(type)
            .inNamespace(object.getMetadata().getNamespace())
            .resource(object)
            .subresource("status")
            .patch(context, json);
    writtenVersions.put(Key.of(object), written.getMetadata().getResourceVersion());
  }

  private Object lock(HasMetadata object) {
    return locks.computeIfAbsent(Key.of(object), k -> new Object());
  }

  /** What this writer keeps per object is kept under its kind and name. */
  private record Key(String kind, String namespace, String name) {
    static Key of(HasMetadata object) {
      return new Key(
          object.getKind(), object.getMetadata().getNamespace(), object.getMetadata().getName());
    }
  }
}
