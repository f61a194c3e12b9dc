package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.kustomize.KubeConfigReference;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.apply.DriftPolicy;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DependencyLookup;
import dev.capstan.engine.dependencies.ObjectDependency;
import dev.capstan.engine.kustomization.HealthTracking.RemoteCluster;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.pipeline.PruneStage;
import dev.capstan.engine.remote.RemoteClusterException;
import dev.capstan.engine.remote.RemoteClusters.Remote;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.status.Status;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import dev.capstan.kube.ObjectRef;
import dev.capstan.kustomize.chart.ChartRender;
import dev.capstan.kustomize.chart.ChartRenderException;
import dev.capstan.kustomize.chart.ChartRenderRequest;
import dev.capstan.kustomize.chart.ChartVersionPin;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a {@link HelmReleasePipeline} works with in its unit tests: a chart source, a renderer, an
 * applier, release records and a status writer that count what they are asked, and a clock the test
 * moves.
 */
final class ReleaseFakes {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final BuiltinLibrary LIBRARY = BuiltinLibrary.load();
  private static final ObjectMapper RECORD_JSON = new ObjectMapper();

  /** Live reads of objects' health (each a read per object in the engine). */
  int healthReads;

  /**
   * The health the monitor's watch has of the tracked objects, given for the evaluator they were
   * tracked with; null: it holds none.
   */
  AggregateHealth watchedHealth;

  /** The chart's version and artifact digest the source gives. */
  String chartVersion = "6.5.0";

  /**
   * An OCIRepository's revision ({@code <tag>@<digest>} or the digest alone); null: the chart is a
   * HelmChart's, whose revision is its version.
   */
  String artifactRevision;

  String chartDigest = "sha256:" + "a".repeat(64);

  /** The chart's name: the one a HelmChart's status observed, and the one the render reads. */
  String chartName = "podinfo";

  boolean sourceReady = true;
  String manifest = read("manifest.yaml");

  /** The chart's crds/ as the render puts them at the head of the manifest, when asked to. */
  String crds = "";

  /** The CRDs in the cluster, by name, and how often one was written. */
  final Set<String> crdsInCluster = new TreeSet<>();

  /** The live objects the ownership check reads: none unless a test says otherwise. */
  ReleaseClaims.Live live = (object, namespace) -> null;

  int crdWrites;
  Status health = Status.Current;

  /** The hooks the render gives, in the render's order. */
  List<ChartRender.Hook> hooks = List.of();

  /** The health of a hook, by its name, when it is looked at alone: Current unless set. */
  final Map<String, Status> hookHealth = new TreeMap<>();

  /** Each object applied, as "Kind/name", in order; and each deleted, with "-" before it. */
  final List<String> writes = new ArrayList<>();

  boolean applyFails = false;

  /** The name of an object whose apply fails (applyError), as the others are applied; or null. */
  String refused;

  boolean renderFails = false;

  /** Thrown by the renderer when set: what no stage of the render expects. */
  RuntimeException renderThrows;

  boolean pruneThrows = false;

  /** How many writes of a superseded record back to deployed the API server refuses next. */
  int redeployRefusals = 0;

  /** What a failed render and a failed apply say. */
  String renderError = "values don't meet the schema";

  String applyError = "admission webhook denied it";

  /** The ConfigMaps and Secrets valuesFrom reads, by "kind/name", each by key. */
  final Map<String, Map<String, byte[]>> valuesObjects = new TreeMap<>();

  /**
   * Each object applied ("apply Kind/name") and each hook phase written ("name=phase"), in order.
   */
  final List<String> steps = new ArrayList<>();

  /** Each record written, as "version status", in order. */
  final List<String> recordLog = new ArrayList<>();

  boolean noCrossNamespaceRefs = false;

  /** The service account (or "the engine") each actor was asked for, in order. */
  final List<String> actedAs = new ArrayList<>();

  int renders;

  /** The kind the observer was told of at each chart render. */
  final List<String> renderedFor = new ArrayList<>();

  final List<ChartRenderRequest> requests = new ArrayList<>();

  /** The remote clusters (by id) whose Capabilities were asked, in order. */
  final List<String> capabilitiesAsked = new ArrayList<>();

  int applies;

  /** Every request the applier was given, in order. */
  final List<ApplyRequest> applyRequests = new ArrayList<>();

  /**
   * What the applier answers for an object, by {@code Kind/namespace/name}, instead of creating it
   * (drift reported or corrected, say); the answer's ref is replaced by the object's.
   */
  final Map<String, ObjectResult> answers = new TreeMap<>();

  /** The answers to a request that writes (drift policy CORRECT); {@link #answers} to a look. */
  final Map<String, ObjectResult> corrections = new TreeMap<>();

  /** Thrown by the applier to a look for drift, as a client does when the API server fails. */
  RuntimeException lookThrows;

  int recordWrites;
  int statusWrites;
  int chartsForgotten;

  /** What the health monitor was last asked to watch per HelmRelease (untracked: removed). */
  final Map<NamespacedName, List<ObjectRef>> tracked = new HashMap<>();

  private final Map<NamespacedName, HealthEvaluator> trackedWith = new HashMap<>();

  final List<InventorySet> deletedInventories = new ArrayList<>();

  /** The owner each of those deletions was asked for. */
  final List<Owner> deleteOwners = new ArrayList<>();

  /** Where each read of release records looked: "storage namespace/release name". */
  final List<String> historyLookups = new ArrayList<>();

  /** Whether each object's deletion fails. */
  boolean deleteFails;

  final List<InventorySet> prunedFrom = new ArrayList<>();
  final TreeMap<Integer, ReleaseRecord> records = new TreeMap<>();
  Instant now = T0;

  HelmReleasePipeline pipeline() {
    return new HelmReleasePipeline(
        ReleasePartsBuilder.builder()
            .charts(new Charts())
            .capabilities(capabilities("v1.36.0", "local.example.com/v1"))
            .remoteCapabilities(
                remote -> {
                  capabilitiesAsked.add(remote.id());
                  return capabilities("v1.34.2", "remote.example.com/v1");
                })
            .renderer(this::render)
            .actors(
                new ReleaseActors() {
                  @Override
                  public Actor actorFor(HelmRelease release) {
                    return ReleaseFakes.this.actorFor(release);
                  }

                  @Override
                  public Optional<Actor> uninstallerFor(HelmRelease release) {
                    return clusters
                        .uninstallTargetFor(release)
                        .map(target -> actorIn(target, release));
                  }

                  @Override
                  public void forget(HelmRelease release) {
                    actorsForgotten.add(NamespacedName.of(release).toString());
                    clusters.forget(release);
                  }
                })
            .noCrossNamespaceRefs(noCrossNamespaceRefs)
            .statuses(this::writeStatus)
            .values(values())
            .library(LIBRARY)
            .clock(
                new Clock() {
                  @Override
                  public ZoneOffset getZone() {
                    return ZoneOffset.UTC;
                  }

                  @Override
                  public Clock withZone(ZoneId zone) {
                    return this;
                  }

                  @Override
                  public Instant instant() {
                    return now;
                  }
                })
            .waitPoll(Duration.ofSeconds(2))
            .hookSleeper(
                d -> {
                  now = now.plus(d);
                  hookSleeps++;
                  onHookSleep.run();
                  if (hookSleepInterrupted) {
                    throw new InterruptedException();
                  }
                })
            .tracking(
                new ReleaseHealthTracking() {
                  @Override
                  public void track(
                      NamespacedName key,
                      List<ObjectRef> objects,
                      HealthEvaluator evaluator,
                      Plaintexts fromSecrets,
                      Optional<RemoteCluster> cluster,
                      Optional<AggregateHealth> written) {
                    tracked.put(key, List.copyOf(objects));
                    trackedWith.put(key, evaluator);
                    trackedIn.put(key, cluster.map(RemoteCluster::id).orElse("local"));
                  }

                  @Override
                  public void untrack(NamespacedName key) {
                    tracked.remove(key);
                  }

                  @Override
                  public Optional<AggregateHealth> watched(
                      NamespacedName key, List<ObjectRef> objects, HealthEvaluator evaluator) {
                    boolean same =
                        List.copyOf(objects).equals(tracked.get(key))
                            && trackedWith.get(key) == evaluator;
                    return Optional.ofNullable(same ? watchedHealth : null);
                  }
                })
            .observer(
                new PipelineObserver() {
                  @Override
                  public void chartRendered(String kind) {
                    renderedFor.add(kind);
                  }
                })
            .build());
  }

  private ChartRender render(ChartRenderRequest request) {
    renders++;
    requests.add(request);
    if (renderThrows != null) {
      throw renderThrows;
    }
    if (renderFails) {
      throw new ChartRenderException(ChartRenderException.Stage.VALUES, renderError);
    }
    return new ChartRender(
        new ChartRender.Chart(chartName, pinned(request.versionPin()), "6.5.0", chartDigest),
        (request.includeCrds() ? crds : "") + manifest,
        hooks,
        "");
  }

  /** The chart's version as the worker pins it: a plain comparison stands in for semver's. */
  private String pinned(ChartVersionPin pin) {
    if (!pin.tag().isEmpty() && !pin.tag().equals(chartVersion)) {
      throw new ChartRenderException(
          ChartRenderException.Stage.VERSION,
          "artifact revision " + pin.tag() + " does not match chart version " + chartVersion);
    }
    return pin.build().isEmpty() ? chartVersion : chartVersion + "+" + pin.build();
  }

  /** The namespace a preview finds the records in; any when null. */
  String recordsNamespace;

  /** The namespaces a preview looked for records in, in order. */
  final List<String> previewReads = new ArrayList<>();

  /** A preview built from these fakes, reading the records the pipeline wrote. */
  ReleasePreview preview() {
    return new ReleasePreview(
        new ReleaseInputs(new Charts(), values(), false),
        new ReleaseRender(
            this::render,
            new ReleaseCapabilities(
                Capabilities.HELM_DEFAULTS, remote -> Capabilities.HELM_DEFAULTS)),
        (namespace, name) -> {
          previewReads.add(namespace);
          boolean there = recordsNamespace == null || recordsNamespace.equals(namespace);
          return new ReleaseHistory(
              namespace, name, there ? List.copyOf(records.values()) : List.of());
        });
  }

  private ValuesComposition values() {
    return new ValuesComposition(
        (kind, ns, name) -> Optional.ofNullable(valuesObjects.get(kind + "/" + name)),
        1 << 20,
        10_000);
  }

  /**
   * {@code release}'s spec with the fields of {@code json} set over it, as an edit would set them.
   */
  static void updateSpec(HelmRelease release, String json) {
    try {
      ObjectMapper mapper = new ObjectMapper();
      ObjectNode spec = mapper.valueToTree(release.getSpec());
      spec.setAll((ObjectNode) mapper.readTree(json));
      release.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static HelmRelease release() {
    return SERIALIZATION.unmarshal(read("podinfo.yaml"), HelmRelease.class);
  }

  /** The HelmRelease of test resource {@code path} (under {@code /helmrelease}). */
  static HelmRelease releaseAt(String path) {
    try (InputStream in = ReleaseFakes.class.getResourceAsStream("/helmrelease/" + path)) {
      return SERIALIZATION.unmarshal(
          new String(in.readAllBytes(), StandardCharsets.UTF_8), HelmRelease.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(String name) {
    try (InputStream in = ReleaseFakes.class.getResourceAsStream("/helmrelease/pipeline/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private final ReleaseActors.Actor actor =
      new ReleaseActors.Actor(
          new Acting(
              discovery(), r -> apply("local", r), new Pruning("local"), (refs, e) -> health(refs)),
          new Store("local"),
          crdsInCluster::contains,
          this::readDependency,
          new ReleaseClaims((object, namespace) -> live.metadata(object, namespace)),
          new Namespaces());

  /** The objects dependsOn may name, by how an {@link ObjectDependency} prints. */
  final Map<String, Map<String, Object>> dependencyObjects = new TreeMap<>();

  /** The dependencies read, in order. */
  final List<String> dependencyReads = new ArrayList<>();

  private DependencyLookup readDependency(ObjectDependency id) {
    dependencyReads.add(id.toString());
    Map<String, Object> object = dependencyObjects.get(id.toString());
    return object == null ? new DependencyLookup.Missing() : new DependencyLookup.Found(object);
  }

  /**
   * A client that answers discovery alone, as a cluster serving Deployments and Services: the
   * objects of a release record's manifest are read as namespaced. Anything else is refused.
   */
  private static KubernetesClient discovery() {
    APIResourceList served =
        new APIResourceListBuilder()
            .addNewResource()
            .withKind("Deployment")
            .withName("deployments")
            .withNamespaced(true)
            .endResource()
            .addNewResource()
            .withKind("Service")
            .withName("services")
            .withNamespaced(true)
            .endResource()
            .build();
    return (KubernetesClient)
        Proxy.newProxyInstance(
            KubernetesClient.class.getClassLoader(),
            new Class<?>[] {KubernetesClient.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getApiResources")) {
                return served;
              }
              throw new UnsupportedOperationException("not faked: " + method.getName());
            });
  }

  /** What the remote cluster of spec.kubeConfig fails with when reached; null: it is usable. */
  RemoteClusterException remoteUnusable;

  /** The HelmReleases whose remote cluster was reached, in order. */
  final List<String> remotesReached = new ArrayList<>();

  /** The cluster each tracked release's objects are watched in: "local" or a remote's id. */
  final Map<NamespacedName, String> trackedIn = new HashMap<>();

  /** The HelmReleases whose actors were told to forget them (closing a remote's client). */
  final List<String> actorsForgotten = new ArrayList<>();

  /**
   * What was done and where, in order: "local" or "remote", then apply, prune, delete, history
   * (records read) or record (one written or deleted).
   */
  final List<String> actedIn = new ArrayList<>();

  /** The remote cluster's own applier, pruner and release records, apart from the local ones. */
  private final Acting remoteActing =
      new Acting(
          discovery(), r -> apply("remote", r), new Pruning("remote"), (refs, e) -> health(refs));

  private final ReleaseStore remoteStore = new Store("remote");

  /** The real choice of cluster, over a fake remote cluster with its own acting and records. */
  private final ReleaseClusters clusters =
      new ReleaseClusters(
          release ->
              Optional.ofNullable(release.getSpec().serviceAccountName())
                  .map(name -> new NamespacedName(release.getMetadata().getNamespace(), name)),
          account -> actor.acting(),
          new ReleaseClusters.Remotes() {
            @Override
            public Remote<Acting> reach(
                NamespacedName key, KubeConfigReference ref, Optional<NamespacedName> account) {
              remotesReached.add(key.toString());
              if (remoteUnusable != null) {
                throw remoteUnusable;
              }
              return new Remote<>(key + "#1", "Secret", null, remoteActing);
            }

            @Override
            public void forget(NamespacedName key) {}
          });

  private static Capabilities capabilities(String version, String groupVersion) {
    return new Capabilities() {
      @Override
      public String kubeVersion() {
        return version;
      }

      @Override
      public List<String> apiVersions() {
        return List.of("v1", groupVersion);
      }
    };
  }

  private ReleaseActors.Actor actorFor(HelmRelease release) {
    return actorIn(clusters.targetFor(release), release);
  }

  private ReleaseActors.Actor actorIn(ReleaseClusters.Target target, HelmRelease release) {
    String account = release.getSpec().serviceAccountName();
    actedAs.add(account == null ? "the engine" : account);
    return new ReleaseActors.Actor(
        target.acting(),
        target.cluster().isPresent() ? remoteStore : actor.store(),
        actor.crds(),
        actor.dependencies(),
        actor.claims(),
        actor.namespaces(),
        target.cluster(),
        target.account());
  }

  private ApplyResult apply(String where, ApplyRequest request) {
    actedIn.add(where + " apply");
    applies++;
    applyRequests.add(request);
    boolean look = request.drift().mode() == DriftPolicy.Mode.LOOK;
    if (look && lookThrows != null) {
      throw lookThrows;
    }
    Map<String, ObjectResult> answering = look ? answers : corrections;
    if (!look) {
      request.objects().forEach(o -> writes.add(o.getKind() + "/" + o.getMetadata().getName()));
      request
          .objects()
          .forEach(o -> steps.add("apply " + o.getKind() + "/" + o.getMetadata().getName()));
    }
    request.objects().stream()
        .filter(o -> "CustomResourceDefinition".equals(o.getKind()))
        .forEach(
            crd -> {
              crdWrites++;
              crdsInCluster.add(crd.getMetadata().getName());
            });
    List<ObjectRef> refs =
        request.objects().stream()
            .map(
                o -> {
                  ObjectRef ref = ObjectRef.of(o);
                  return ref.namespace().isEmpty()
                      ? ref.withNamespace(request.defaultNamespace())
                      : ref;
                })
            .toList();
    if (applyFails || refs.stream().anyMatch(r -> r.name().equals(refused))) {
      return new ApplyResult(
          refs.stream().map(r -> new ObjectResult(r, Action.FAILED, applyError)).toList(),
          InventorySet.EMPTY);
    }
    return new ApplyResult(
        refs.stream()
            .map(
                r -> {
                  ObjectResult answer = answering.get(r.toString());
                  return answer == null
                      ? ObjectResult.of(r, Action.CREATED)
                      : new ObjectResult(r, answer.action(), answer.reason(), answer.fields());
                })
            .toList(),
        InventorySet.of(refs));
  }

  private AggregateHealth health(List<ObjectRef> refs) {
    healthReads++;
    if (refs.size() == 1 && hooks.stream().anyMatch(h -> h.name().equals(refs.get(0).name()))) {
      Status hook = hookHealth.getOrDefault(refs.get(0).name(), Status.Current);
      return new AggregateHealth(
          hook,
          hook == Status.Current ? "" : "Job/apps/" + refs.get(0).name() + ": BackoffLimitExceeded",
          List.of(),
          List.of(),
          1);
    }
    return new AggregateHealth(
        health,
        health == Status.Current ? "" : "Deployment/apps/podinfo: 0 of 1 replicas ready",
        List.of(),
        List.of(),
        refs.size());
  }

  private void writeStatus(HelmRelease release, HelmReleaseStatus next) {
    if (!next.equals(release.getStatus())) {
      statusWrites++;
      release.setStatus(next);
    }
  }

  private final class Charts implements ChartSources {
    @Override
    public ChartArtifact find(HelmRelease release) {
      if (!sourceReady) {
        throw ReleaseFailure.waiting(
            ReleaseReason.SOURCE_NOT_READY, "HelmChart 'apps/apps-podinfo' is not ready");
      }
      return new ChartArtifact(
          artifactRevision != null,
          artifactRevision != null
              ? "OCIRepository 'apps/podinfo'"
              : "HelmChart 'apps/apps-podinfo'",
          artifactRevision == null ? chartVersion : artifactRevision,
          chartDigest,
          Path.of("/artifacts"),
          "podinfo-" + chartVersion + ".tgz",
          artifactRevision != null ? null : chartName);
    }

    @Override
    public void forget(HelmRelease release) {
      chartsForgotten++;
    }
  }

  private final class Pruning implements PruneStage {
    private final String where;

    Pruning(String where) {
      this.where = where;
    }

    @Override
    public List<ObjectResult> prune(
        InventorySet previous, InventorySet current, Owner owner, Duration timeout) {
      actedIn.add(where + " prune");
      prunedFrom.add(previous);
      if (pruneThrows) {
        throw new KubernetesClientException("the API server went away");
      }
      return previous.refs().stream()
          .filter(r -> !current.refs().contains(r))
          .peek(r -> crdsInCluster.remove(r.name()))
          .map(r -> ObjectResult.of(r, Action.DELETED))
          .toList();
    }

    @Override
    public List<ObjectResult> deleteInventory(
        InventorySet inventory, Owner owner, Duration timeout, boolean waitForTermination) {
      actedIn.add(where + " delete");
      if (deleteFails) {
        return inventory.refs().stream()
            .map(r -> new ObjectResult(r, Action.FAILED, "deletion refused"))
            .toList();
      }
      deletedInventories.add(inventory);
      deleteOwners.add(owner);
      inventory.refs().forEach(r -> writes.add("-" + r.kind() + "/" + r.name()));
      inventory.refs().forEach(r -> crdsInCluster.remove(r.name()));
      return inventory.refs().stream().map(r -> ObjectResult.of(r, Action.DELETED)).toList();
    }
  }

  /** How often a rollback's or uninstall's hook was waited on; each wait moves the clock on. */
  int hookSleeps;

  /** Whether a hook's wait is interrupted, as when the engine stops. */
  boolean hookSleepInterrupted;

  /** Run at each of those waits, to let a hook complete meanwhile. */
  Runnable onHookSleep = () -> {};

  /** The namespaces in the cluster; every one a release names, unless a test says otherwise. */
  Set<String> namespaces;

  /** What a namespace's creation fails with; null: it is created. */
  KubernetesClientException namespaceRefusal;

  /** The namespaces created, with their labels. */
  final Map<String, Map<String, String>> namespacesCreated = new TreeMap<>();

  private final class Namespaces implements ReleaseNamespace.Namespaces {
    @Override
    public Optional<Namespace> get(String name) {
      if (namespaces != null && !namespaces.contains(name)) {
        return Optional.empty();
      }
      return Optional.of(
          new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build());
    }

    @Override
    public void create(Namespace namespace) {
      steps.add("create Namespace/" + namespace.getMetadata().getName());
      if (namespaceRefusal != null) {
        throw namespaceRefusal;
      }
      namespaces.add(namespace.getMetadata().getName());
      namespacesCreated.put(namespace.getMetadata().getName(), namespace.getMetadata().getLabels());
    }
  }

  /** {@code release} as it reads back from its Secret: through its JSON, as Helm stores it. */
  private static Release stored(Release release) {
    try {
      return RECORD_JSON.readValue(RECORD_JSON.writeValueAsBytes(release), Release.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private final class Store implements ReleaseStore {
    private final String where;
    private int resourceVersion;

    Store(String where) {
      this.where = where;
    }

    @Override
    public ReleaseHistory history(String namespace, String name) {
      actedIn.add(where + " history");
      historyLookups.add(namespace + "/" + name);
      return new ReleaseHistory(namespace, name, List.copyOf(records.values()));
    }

    @Override
    public ReleaseRecord create(String namespace, Release release) {
      return put(namespace, release);
    }

    @Override
    public ReleaseRecord update(ReleaseRecord record, Release release) {
      if (redeployRefusals > 0
          && record.release().status() == ReleaseStatus.SUPERSEDED
          && release.status() == ReleaseStatus.DEPLOYED) {
        redeployRefusals--;
        throw new KubernetesClientException("the API server refused the write");
      }
      if (release.hooks() != null) {
        release.hooks().stream()
            .filter(h -> h.lastRun() != null && !String.valueOf(h.lastRun().phase()).isEmpty())
            .forEach(h -> steps.add(h.name() + "=" + h.lastRun().phase()));
      }
      return put(record.namespace(), release);
    }

    @Override
    public List<ReleaseRecord> prune(ReleaseHistory history, int keep) {
      List<ReleaseRecord> gone = history.beyond(keep);
      gone.forEach(this::delete);
      return gone;
    }

    @Override
    public void delete(ReleaseRecord record) {
      actedIn.add(where + " record");
      recordWrites++;
      records.remove(record.release().version());
    }

    private ReleaseRecord put(String namespace, Release written) {
      actedIn.add(where + " record");
      recordWrites++;
      Release release = stored(written);
      recordLog.add(release.version() + " " + release.status().helmName());
      ReleaseRecord record =
          new ReleaseRecord(
              namespace,
              ReleaseRecord.secretName(release.name(), release.version()),
              String.valueOf(++resourceVersion),
              Map.of("status", release.status().helmName()),
              release);
      records.put(release.version(), record);
      return record;
    }
  }
}
