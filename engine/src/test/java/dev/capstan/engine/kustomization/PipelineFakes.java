package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.apply.DesiredObject;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.applier.wait.Lookup;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.Backoff;
import dev.capstan.engine.pipeline.ClusterView;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.pipeline.PruneStage;
import dev.capstan.engine.pipeline.StoredTrees;
import dev.capstan.engine.remote.RemoteClientFactory;
import dev.capstan.engine.remote.RemoteClusters;
import dev.capstan.engine.shard.WriteFence;
import dev.capstan.engine.status.StatusWrites;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.kube.ObjectRef;
import dev.capstan.testing.MutableClock;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A {@link KustomizationPipeline} with no cluster: the real build, status logic and wait rules,
 * with the cluster's side (apply, prune, the objects' live state, status writes) played by the
 * test. Kustomization, GitRepository and live objects come from the YAML fixtures under {@code
 * pipeline/}.
 */
final class PipelineFakes implements AutoCloseable {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final Duration WAIT_POLL = Duration.ofSeconds(2);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static ManifestBuilder builder;

  final MutableClock clock = new MutableClock(T0);
  final GitRepository repository = fixture("gitrepository.yaml", GitRepository.class);

  /** The live objects the wait reads, by Kind/name. */
  final Map<String, Map<String, Object>> live = new ConcurrentHashMap<>();

  final List<ApplyRequest> applies = new CopyOnWriteArrayList<>();
  final List<KustomizationStatus> written = new CopyOnWriteArrayList<>();

  /** Per Kustomization, the object whose status was last written (what the API server holds). */
  final Map<NamespacedName, Kustomization> lastWritten = new ConcurrentHashMap<>();

  private final AtomicLong versions = new AtomicLong();
  final List<Outcome.Kind> observed = new CopyOnWriteArrayList<>();
  final List<Boolean> healthWaits = new CopyOnWriteArrayList<>();
  final List<String> deletions = new CopyOnWriteArrayList<>();
  final List<Duration> pruneTimeouts = new CopyOnWriteArrayList<>();

  /** For each inventory handed to the health monitor: the health the status already told. */
  final List<Optional<AggregateHealth>> told = new CopyOnWriteArrayList<>();

  /** What the apply answers; by default every object is created. */
  Function<ApplyRequest, ApplyResult> applying = PipelineFakes::allCreated;

  /** What the deletion of a deleted Kustomization's objects answers; by default nothing. */
  Function<List<ObjectRef>, List<ObjectResult>> deleting = refs -> List.of();

  /** For each deletion of a deleted Kustomization's objects: whether it waited for them to go. */
  final List<Boolean> terminationWaits = new CopyOnWriteArrayList<>();

  /** Asked before each write, as the engine's shard gate is; by default everything goes. */
  WriteFence fence = WriteFence.NONE;

  /** Whether the store is empty, as after a restart (every artifact missing). */
  volatile boolean storeEmpty;

  /** Whether the store is new and no source has been fetched into it yet. */
  volatile boolean sourcesOnTheirWay;

  /** Other Kustomizations the engine sees, by key. */
  final Map<NamespacedName, Kustomization> others = new ConcurrentHashMap<>();

  /** What the prune answers for the objects it is asked to delete; by default all deleted. */
  Function<List<ObjectRef>, List<ObjectResult>> pruning =
      refs -> refs.stream().map(r -> ObjectResult.of(r, Action.DELETED)).toList();

  // Never contacted: every request of the pipeline to the cluster goes through the fakes.
  private final KubernetesClient client =
      new KubernetesClientBuilder()
          .withConfig(
              new ConfigBuilder()
                  .withMasterUrl("https://127.0.0.1:9")
                  .withRequestTimeout(1000)
                  .build())
          .build();
  private final ServiceAccountClients accounts;
  private final ManifestBuilder ownBuilder;
  final KustomizationPipeline pipeline;

  PipelineFakes() {
    this(null, PipelineSettings.DEFAULTS);
  }

  /**
   * @param builder a builder of the test's own (closed with these fakes), or null for the shared
   *     one
   */
  PipelineFakes(ManifestBuilder builder) {
    this(builder, PipelineSettings.DEFAULTS);
  }

  /** Fakes with the engine-wide settings {@code settings}. */
  PipelineFakes(PipelineSettings settings) {
    this(null, settings);
  }

  private PipelineFakes(ManifestBuilder builder, PipelineSettings settings) {
    this.ownBuilder = builder;
    Acting acting =
        new Acting(
            client,
            this::apply,
            new FakePruning(),
            (refs, evaluator) -> ResourceManager.health(refs, this::find, evaluator));
    accounts =
        new ServiceAccountClients(
            acting,
            c -> acting,
            Optional.empty(),
            clock,
            Duration.ofMinutes(10),
            new VertxHttpClientFactory());
    PipelineObserver observer =
        new PipelineObserver() {
          @Override
          public void reconciled(String kind, NamespacedName key, Outcome.Kind outcome) {
            observed.add(outcome);
          }

          @Override
          public void healthWaited(NamespacedName kustomization, boolean succeeded, Duration took) {
            healthWaits.add(succeeded);
          }
        };
    pipeline =
        new KustomizationPipeline(
            PipelinePartsBuilder.builder()
                .client(client)
                .view(new View())
                .manifestBuilder(builder == null ? builder() : builder)
                .trees(
                    new StoredTrees() {
                      @Override
                      public Optional<Path> forDigest(String digest) {
                        return tree(digest);
                      }

                      @Override
                      public boolean onItsWay(String kind, NamespacedName source, String digest) {
                        return sourcesOnTheirWay
                            && kind.equals("GitRepository")
                            && source.equals(new NamespacedName("team", "repo"))
                            && digest.equals(repository.getStatus().artifact().digest());
                      }
                    })
                .accounts(accounts)
                .statuses(new FakeStatuses())
                .tracking(new FakeTracking())
                .waits(new WaitTracker())
                .library(BuiltinLibrary.load())
                .clock(clock)
                .backoff(new Backoff(Duration.ofSeconds(1)))
                .waitPoll(WAIT_POLL)
                .noCrossNamespaceRefs(false)
                .observer(observer)
                .dependencyWatching(DependencyWatching.NONE)
                .remotes(
                    new RemoteClusters<>(
                        client,
                        RemoteClientFactory.defaults(new VertxHttpClientFactory()),
                        c -> acting,
                        1))
                .settings(settings)
                .fence(
                    new WriteFence() {
                      @Override
                      public void check(HasMetadata object) {
                        fence.check(object);
                      }

                      @Override
                      public Duration bound(HasMetadata object, Duration timeout) {
                        return fence.bound(object, timeout);
                      }
                    })
                .build());
  }

  /**
   * The Kustomization of the fixture, with {@code specLines} (YAML under spec) added or replacing
   * its own.
   */
  static Kustomization kustomization(String... specLines) {
    String text = read("kustomization.yaml");
    for (String line : specLines) {
      String field = line.substring(0, line.indexOf(':'));
      text = text.replaceAll("(?m)^  " + field + ":.*\\n", "") + "  " + line + "\n";
    }
    return SERIALIZATION.unmarshal(text, Kustomization.class);
  }

  String revision() {
    return repository.getStatus().artifact().revision();
  }

  /**
   * The source's artifact becomes {@code revision} (the same stored tree), with {@code metadata}
   * (null: none), as after a new fetch.
   */
  void newArtifact(String revision, Map<String, String> metadata) {
    GitRepositoryStatus status = repository.getStatus();
    Artifact artifact = status.artifact();
    repository.setStatus(
        new GitRepositoryStatus(
            status.observedGeneration(),
            status.conditions(),
            new Artifact(
                revision,
                artifact.digest(),
                artifact.path(),
                artifact.lastUpdateTime(),
                null,
                null,
                metadata),
            status.lastHandledReconcileAt(),
            status.includedArtifacts(),
            status.sourceVerificationMode()));
  }

  /**
   * Puts the fixture object of {@code kindAndName} (e.g. Deployment/web) in state {@code state}
   * into the cluster.
   */
  void live(String kindAndName, String state) {
    for (String doc : read("live.yaml").split("(?m)^---$")) {
      GenericKubernetesResource object =
          SERIALIZATION.unmarshal(doc, GenericKubernetesResource.class);
      if ((object.getKind() + "/" + object.getMetadata().getName()).equals(kindAndName)
          && state.equals(object.getMetadata().getLabels().get("state"))) {
        live.put(kindAndName, DesiredObject.asMap(object));
        return;
      }
    }
    throw new IllegalArgumentException("no fixture " + kindAndName + " in state " + state);
  }

  static ObjectRef ref(String kind, String name) {
    return "Deployment".equals(kind)
        ? new ObjectRef("apps", "v1", kind, "team", name)
        : new ObjectRef("", "v1", kind, "team", name);
  }

  /** An inventory as the status has it. */
  static Inventory inventory(ObjectRef... refs) {
    return Inventories.toStatus(InventorySet.of(List.of(refs)));
  }

  static List<String> ids(Inventory inventory) {
    return inventory.entries().stream().map(e -> e.id()).sorted().toList();
  }

  private Lookup find(ObjectRef ref) {
    Map<String, Object> object = live.get(ref.kind() + "/" + ref.name());
    return object == null ? Lookup.notFound() : Lookup.found(object);
  }

  private ApplyResult apply(ApplyRequest request) {
    applies.add(request);
    return applying.apply(request);
  }

  static List<ObjectRef> refs(ApplyRequest request) {
    return request.objects().stream()
        .map(
            o -> {
              ObjectRef ref = ObjectRef.of(o);
              return ref.namespace().isEmpty()
                  ? ref.withNamespace(request.defaultNamespace())
                  : ref;
            })
        .toList();
  }

  static ApplyResult allCreated(ApplyRequest request) {
    List<ObjectRef> refs = refs(request);
    return new ApplyResult(
        refs.stream().map(r -> ObjectResult.of(r, Action.CREATED)).toList(), InventorySet.of(refs));
  }

  /**
   * Every object created, the API server answering each apply with the live object of the same
   * Kind/name, or with nothing for those not in {@link #live}.
   */
  ApplyResult allCreatedAnsweringLive(ApplyRequest request) {
    ApplyResult created = allCreated(request);
    Map<ObjectRef, String> answers = new HashMap<>();
    for (ObjectRef ref : created.inventory().refs()) {
      Map<String, Object> object = live.get(ref.kind() + "/" + ref.name());
      if (object != null) {
        answers.put(ref.withoutVersion(), SERIALIZATION.asJson(object));
      }
    }
    return new ApplyResult(created.objects(), created.inventory(), answers);
  }

  private Optional<Path> tree(String digest) {
    if (storeEmpty || !digest.equals(repository.getStatus().artifact().digest())) {
      return Optional.empty();
    }
    return Optional.of(resource("/pipeline/tree"));
  }

  private static Path resource(String name) {
    try {
      return Path.of(PipelineFakes.class.getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static synchronized ManifestBuilder builder() {
    if (builder == null) {
      builder = new ManifestBuilder(BuildLimits.engine(1), sandbox());
    }
    return builder;
  }

  /** Where the fakes' builds may read: the test resources of the pipeline. */
  static BuildSandbox sandbox() {
    return BuildSandbox.forUser(resource("/pipeline/tree").getParent());
  }

  private static <T> T fixture(String name, Class<T> type) {
    return SERIALIZATION.unmarshal(read(name), type);
  }

  private static String read(String name) {
    try (InputStream in = PipelineFakes.class.getResourceAsStream("/pipeline/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    accounts.close();
    client.close();
    if (ownBuilder != null) {
      ownBuilder.close();
    }
  }

  private final class View implements ClusterView {
    @Override
    public Optional<GitRepository> gitRepository(NamespacedName key) {
      return key.equals(new NamespacedName("team", "repo"))
          ? Optional.of(repository)
          : Optional.empty();
    }

    @Override
    public Optional<Kustomization> kustomization(NamespacedName key) {
      return Optional.ofNullable(others.get(key));
    }

    @Override
    public Collection<Kustomization> kustomizations() {
      return List.copyOf(others.values());
    }
  }

  /**
   * Writes as the engine's writer does as far as the pipeline can tell: the object gets the status.
   */
  private final class FakeStatuses implements StatusWrites {
    @Override
    public KustomizationStatus write(Kustomization current, KustomizationStatus next) {
      fence.check(current); // as the engine's status writer does
      written.add(next);
      current.setStatus(next);
      current.getMetadata().setResourceVersion(Long.toString(versions.incrementAndGet()));
      lastWritten.put(NamespacedName.of(current), current);
      return next;
    }

    /**
     * The object last written when {@code cached} is of an older version (a cache behind that
     * write), as a read of the API server would return it; one of no version is a test's own.
     */
    @Override
    public Kustomization current(Kustomization cached) {
      Kustomization last = lastWritten.get(NamespacedName.of(cached));
      String version = cached.getMetadata().getResourceVersion();
      return last != null
              && version != null
              && Long.parseLong(version) < Long.parseLong(last.getMetadata().getResourceVersion())
          ? last
          : cached;
    }

    @Override
    public void forget(HasMetadata object) {}
  }

  private final class FakeTracking implements HealthTracking {
    @Override
    public void track(
        NamespacedName key,
        List<ObjectRef> objects,
        HealthEvaluator evaluator,
        Optional<ServiceAccount> readAs,
        Optional<RemoteCluster> cluster,
        Optional<AggregateHealth> written) {
      told.add(written);
    }

    @Override
    public void untrack(NamespacedName key) {}
  }

  private final class FakePruning implements PruneStage {
    @Override
    public List<ObjectResult> prune(
        InventorySet previous, InventorySet current, Owner owner, Duration timeout) {
      pruneTimeouts.add(timeout);
      List<ObjectRef> stale = previous.staleAfter(current);
      return stale.isEmpty() ? List.of() : pruning.apply(stale);
    }

    @Override
    public List<ObjectResult> deleteInventory(
        InventorySet inventory, Owner owner, Duration timeout, boolean waitForTermination) {
      List<String> names = new ArrayList<>();
      inventory.refs().forEach(r -> names.add(r + " within " + timeout));
      deletions.addAll(names);
      terminationWaits.add(waitForTermination);
      return deleting.apply(inventory.refs());
    }
  }
}
