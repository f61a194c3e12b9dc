package dev.capstan.ui;

import dev.capstan.api.common.ReconciledSpec;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.SourceStatus;
import dev.capstan.applier.ClusterErrors;
import dev.capstan.engine.shard.ShardOptions;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.URL;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The Kustomizations, HelmReleases and sources (every kind of {@link #SOURCE_KINDS}) of the cluster
 * as the user sees them: one informer (one list, then one watch) per kind for the whole process,
 * shared by every page and browser; or, for a user who may list only some namespaces, one per kind
 * and namespace named. A kind or namespace the user cannot list, or a cluster that cannot be
 * reached, is kept as a problem line; the informers keep retrying, so the view fills in once access
 * is granted.
 */
final class Catalog implements AutoCloseable, DriftTargets.Lookup {
  /**
   * How the change events name a kind's problem line ({@code Problem/HelmReleases/team}): no page
   * but the overview shows one, so no other page fetches again for it.
   */
  static final String PROBLEM = "Problem/";

  /** The source kinds the overview shows, in the order of its sections. */
  static final List<
          Class<? extends CustomResource<? extends ReconciledSpec, ? extends SourceStatus>>>
      SOURCE_KINDS =
          List.of(
              GitRepository.class,
              OCIRepository.class,
              Bucket.class,
              HelmRepository.class,
              HelmChart.class);

  private final List<Watched<Kustomization>> kustomizations = new ArrayList<>();
  private final List<Watched<HelmRelease>> helmReleases = new ArrayList<>();
  private final List<SourceWatches<?>> sources = new ArrayList<>();
  private final List<Watched<Lease>> leases = new ArrayList<>();
  private final Clock clock;

  /**
   * @param namespaces the namespaces to watch; empty for all of them
   */
  Catalog(
      KubernetesClient client, List<String> namespaces, Consumer<String> onChange, Clock clock) {
    URL server = client.getMasterUrl();
    this.clock = clock;
    for (String ns : namespaces.isEmpty() ? List.of("") : namespaces) {
      kustomizations.add(watch(client, Kustomization.class, ns, onChange, server));
      helmReleases.add(watch(client, HelmRelease.class, ns, onChange, server));
      leases.add(watchLeases(client, ns, onChange, server));
    }
    for (Class<? extends CustomResource<? extends ReconciledSpec, ? extends SourceStatus>> kind :
        SOURCE_KINDS) {
      sources.add(SourceWatches.of(client, kind, namespaces, onChange, server));
    }
  }

  private static <T extends HasMetadata> Watched<T> watch(
      KubernetesClient client, Class<T> kind, String ns, Consumer<String> onChange, URL server) {
    SharedIndexInformer<T> informer =
        ns.isEmpty()
            ? client.resources(kind).inAnyNamespace().runnableInformer(0)
            : client.resources(kind).inNamespace(ns).runnableInformer(0);
    return new Watched<>(plural(kind), ns, informer, onChange, server, o -> true);
  }

  /**
   * The Leases of the namespaces in view. The shard map carries no label to select it by, so every
   * Lease is listed; only a replica's or a shard map's change reaches the pages (nodes and leader
   * elections renew theirs every few seconds).
   */
  private static Watched<Lease> watchLeases(
      KubernetesClient client, String ns, Consumer<String> onChange, URL server) {
    SharedIndexInformer<Lease> informer =
        ns.isEmpty()
            ? client.leases().inAnyNamespace().runnableInformer(0)
            : client.leases().inNamespace(ns).runnableInformer(0);
    return new Watched<>("Leases", ns, informer, onChange, server, Catalog::isShardLease);
  }

  private static boolean isShardLease(Lease lease) {
    String name = lease.getMetadata().getName();
    return name.startsWith(ShardOptions.REPLICA_LEASE_PREFIX)
        || name.startsWith(ShardOptions.SHARD_MAP_PREFIX);
  }

  /** {@code GitRepositories}, {@code Buckets}: how the page and its problems name a kind. */
  static String plural(Class<? extends HasMetadata> kind) {
    String name = HasMetadata.getKind(kind);
    return name.endsWith("y") ? name.substring(0, name.length() - 1) + "ies" : name + "s";
  }

  void start() {
    kustomizations.forEach(Watched::start);
    helmReleases.forEach(Watched::start);
    sources.forEach(s -> s.watched().forEach(Watched::start));
    leases.forEach(Watched::start);
  }

  /** The Replicas page: the shard Leases in view and the Kustomizations' owner labels. */
  Replicas replicas() {
    List<Lease> shardLeases = items(leases).stream().filter(Catalog::isShardLease).toList();
    List<String> problems = new ArrayList<>();
    leases.forEach(w -> w.problem().ifPresent(p -> problems.add(p.message())));
    boolean synced = leases.stream().allMatch(Watched::synced);
    return Replicas.of(shardLeases, kustomizations(), problems, synced, clock.instant());
  }

  Overview overview() {
    List<Overview.SourceRows> sections =
        sources.stream().map(s -> Overview.rows(s.kinds(), items(s.watched()))).toList();
    return Overview.of(kustomizations(), items(helmReleases), sections, problems());
  }

  List<Kustomization> kustomizations() {
    return items(kustomizations);
  }

  @Override
  public Optional<Kustomization> kustomization(String namespace, String name) {
    return find(kustomizations, namespace + "/" + name);
  }

  Optional<HelmRelease> helmRelease(String namespace, String name) {
    return find(helmReleases, namespace + "/" + name);
  }

  @Override
  public Optional<GitRepository> gitRepository(String namespace, String name) {
    return source("GitRepository", namespace, name).map(GitRepository.class::cast);
  }

  /** The source of that kind (as {@code sourceRef.kind} names it); empty if not watched or seen. */
  Optional<CustomResource<? extends ReconciledSpec, ? extends SourceStatus>> source(
      String kind, String namespace, String name) {
    return sources.stream()
        .filter(s -> HasMetadata.getKind(s.type()).equals(kind))
        .findFirst()
        .flatMap(s -> find(s.watched(), namespace + "/" + name));
  }

  List<Overview.Problem> problems() {
    List<Overview.Problem> problems = new ArrayList<>();
    kustomizations.forEach(w -> w.problem().ifPresent(problems::add));
    helmReleases.forEach(w -> w.problem().ifPresent(problems::add));
    sources.forEach(s -> s.watched().forEach(w -> w.problem().ifPresent(problems::add)));
    return problems;
  }

  private static <T extends HasMetadata> List<T> items(List<Watched<T>> watched) {
    List<T> all = new ArrayList<>();
    watched.forEach(w -> all.addAll(w.items()));
    return all;
  }

  private static <T extends HasMetadata> Optional<T> find(List<Watched<T>> watched, String key) {
    return watched.stream()
        .map(w -> w.informer.getStore().getByKey(key))
        .filter(o -> o != null)
        .findFirst();
  }

  @Override
  public void close() {
    kustomizations.forEach(w -> w.informer.stop());
    helmReleases.forEach(w -> w.informer.stop());
    sources.forEach(s -> s.watched().forEach(w -> w.informer.stop()));
    leases.forEach(w -> w.informer.stop());
  }

  /** The informers of one source kind: one for all namespaces, or one per namespace named. */
  private record SourceWatches<
      T extends CustomResource<? extends ReconciledSpec, ? extends SourceStatus>>(
      String kinds, Class<T> type, List<Watched<T>> watched) {

    static <T extends CustomResource<? extends ReconciledSpec, ? extends SourceStatus>>
        SourceWatches<T> of(
            KubernetesClient client,
            Class<T> type,
            List<String> namespaces,
            Consumer<String> onChange,
            URL server) {
      List<Watched<T>> watched = new ArrayList<>();
      for (String ns : namespaces.isEmpty() ? List.of("") : namespaces) {
        watched.add(watch(client, type, ns, onChange, server));
      }
      return new SourceWatches<>(plural(type), type, List.copyOf(watched));
    }
  }

  /**
   * One kind's informer (for all namespaces or one) and the last reason it could not list or watch.
   */
  private static final class Watched<T extends HasMetadata> {
    private final String kinds;
    private final String where;
    private final String problemKey;
    private final SharedIndexInformer<T> informer;
    private final AtomicReference<String> lastError = new AtomicReference<>();

    /** The problem the pages were last told of; null once the overview read the watch healthy. */
    private final AtomicReference<String> announced = new AtomicReference<>();

    Watched(
        String kinds,
        String namespace,
        SharedIndexInformer<T> informer,
        Consumer<String> onChange,
        URL server,
        Predicate<T> shown) {
      this.kinds = kinds;
      this.where = namespace.isEmpty() ? "" : " in namespace " + namespace;
      this.problemKey = PROBLEM + kinds + (namespace.isEmpty() ? "" : "/" + namespace);
      this.informer = informer;
      informer.addEventHandler(
          new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
              if (shown.test(obj)) {
                onChange.accept(key(obj));
              }
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
              if (shown.test(newObj)) {
                onChange.accept(key(newObj));
              }
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
              if (shown.test(obj)) {
                onChange.accept(key(obj));
              }
            }
          });
      informer.exceptionHandler(
          (started, error) -> {
            String described = describe(error, server);
            lastError.set(described);
            // The informer retries for as long as the view runs (a forbidden kind, an unreachable
            // cluster): a retry failing as the last one did changes nothing a page shows, so only
            // a new or different problem line tells the pages, and only the overview shows it.
            if (!described.equals(announced.getAndSet(described))) {
              onChange.accept(problemKey);
            }
            return true;
          });
    }

    void start() {
      informer.start();
    }

    /** {@code Kind/namespace/name}, as the graph and the pages name objects. */
    private static String key(HasMetadata object) {
      return ObjectRef.of(object).display();
    }

    List<T> items() {
      return informer.getStore().list();
    }

    /** Whether the first list has been read, so that what is absent from it is absent. */
    boolean synced() {
      return informer.hasSynced();
    }

    Optional<Overview.Problem> problem() {
      String error = lastError.get();
      if (informer.hasSynced() && informer.isWatching()) {
        // Recovered: should it fail again, even as before, its line is news to the pages again.
        announced.set(null);
        return Optional.empty();
      }
      String hint =
          where.isEmpty() && error != null && error.contains("forbidden")
              ? " (a user who may list only some namespaces: capstan ui -n NAMESPACE)"
              : "";
      return Optional.of(
          new Overview.Problem(
              kinds,
              error == null
                  ? "cannot list " + kinds + where + " yet: waiting for the API server"
                  : "cannot list " + kinds + where + ": " + error + hint));
    }

    private static String describe(Throwable error, URL server) {
      for (Throwable t = error; t != null; t = t.getCause()) {
        if (t instanceof KubernetesClientException k) {
          return ClusterErrors.describe(k, server);
        }
      }
      return error.getClass().getSimpleName()
          + (error.getMessage() == null ? "" : ": " + error.getMessage());
    }
  }
}
