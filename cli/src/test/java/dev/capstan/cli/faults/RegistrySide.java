package dev.capstan.cli.faults;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.cli.faults.FaultyProxy.Mode;
import dev.capstan.testing.OciRegistry;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;

/**
 * The fault bench's registry side: a real OCI registry ({@link OciRegistry}) that the engine
 * reaches through a {@link FaultyProxy} of its own, its {@link RegistryArtifact}, the OCIRepository
 * and the Kustomizations of the artifact's directories. Only a run that names a registry fault has
 * one ({@link Fault#needRegistry}).
 */
public final class RegistrySide implements AutoCloseable {
  static final String SOURCE = "registry";
  static final String TAG = "live";

  /** The OCIRepository's timeout for one fetch. */
  static final Duration FETCH_TIMEOUT = Duration.ofSeconds(8);

  private static final String REPOSITORY = "faults/workload";

  private final SourceObjects objects;
  private final String namespace;
  private final OciRegistry registry;
  private final FaultyProxy proxy;
  private final RegistryArtifact artifact;
  private final RegistryStatus status;

  private RegistrySide(
      KubernetesClient admin,
      String namespace,
      Clock clock,
      OciRegistry registry,
      FaultyProxy proxy,
      RegistryArtifact artifact) {
    this.objects = new SourceObjects(admin, namespace, clock);
    this.namespace = namespace;
    this.registry = registry;
    this.proxy = proxy;
    this.artifact = artifact;
    this.status = new RegistryStatus(admin, namespace, objects, artifact.names());
  }

  /**
   * Starts a registry with its storage under {@code dir} and its proxy, and pushes the first
   * artifact: {@code count} Kustomizations' directories.
   */
  public static RegistrySide start(
      KubernetesClient admin, String namespace, Path dir, int count, Random random, Clock clock)
      throws Exception {
    OciRegistry registry = OciRegistry.start(dir.resolve("registry"), OciRegistry.Options.plain());
    FaultyProxy proxy = null;
    try {
      proxy = FaultyProxy.start("127.0.0.1", Integer.parseInt(registry.host().split(":")[1]));
      String target = "oci://" + registry.host() + "/" + REPOSITORY + ":" + TAG;
      RegistryArtifact artifact =
          new RegistryArtifact(dir.resolve("artifact"), target, random, clock);
      artifact.first(count);
      return new RegistrySide(admin, namespace, clock, registry, proxy, artifact);
    } catch (Exception e) {
      try {
        if (proxy != null) {
          proxy.close();
        }
      } finally {
        registry.close();
      }
      throw e;
    }
  }

  /** How many Kustomizations the registry side has for {@code gitKustomizations}: a tenth, >= 2. */
  public static int countFor(int gitKustomizations) {
    return Math.max(2, gitKustomizations / 10);
  }

  static String name(int index) {
    return "o" + index;
  }

  /** Creates the OCIRepository (through the proxy) and the Kustomizations, labelled for a shard. */
  void create(String shardLabel, String shard) {
    objects.create(
        OCIRepository.class,
        """
        apiVersion: source.capstan.dev/v1
        kind: OCIRepository
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec: {url: "oci://127.0.0.1:%d/%s", ref: {tag: %s}, interval: 10s, timeout: %ds}
        """
            .formatted(
                SOURCE,
                namespace,
                shardLabel,
                shard,
                proxy.port(),
                REPOSITORY,
                TAG,
                FETCH_TIMEOUT.toSeconds()));
    for (String name : artifact.names()) {
      objects.create(
          Kustomization.class,
          """
          apiVersion: kustomize.capstan.dev/v1
          kind: Kustomization
          metadata: {name: %s, namespace: %s, labels: {%s: %s}}
          spec:
            sourceRef: {kind: OCIRepository, name: %s}
            path: "./%s"
            targetNamespace: %s
            interval: 10m
            retryInterval: 20s
            timeout: 60s
            prune: true
          """
              .formatted(name, namespace, shardLabel, shard, SOURCE, name, namespace));
    }
  }

  /** Per Kustomization of the registry side, the latest artifact's revision. */
  Map<String, String> revisions() {
    return artifact.revisions();
  }

  /** Per Kustomization, its objects and their values in the latest artifact. */
  Map<String, Map<String, String>> expected() {
    return artifact.expected();
  }

  Map<String, Instant> removedAt() {
    return artifact.removedAt();
  }

  /** One change to the artifact, pushed; returns the revision of this push. */
  String pushChange() throws IOException {
    return artifact.pushChange();
  }

  /** Asks for a fetch of the OCIRepository now; returns the request's value. */
  String requestFetch() {
    return objects.requestFetch(OCIRepository.class, SOURCE);
  }

  /**
   * The registry answering as {@code mode} for {@code duration}: a change is pushed (straight to
   * the registry, as a publisher would) and a fetch asked for at once; the fetch must fail clearly
   * within {@link RegistryFailureCheck#BUDGET} and the pushed artifact must be neither stored nor
   * applied for the whole fault ({@link RegistryFailureCheck}). The fault lasts until both ends.
   */
  void fault(Mode mode, Duration duration) throws Exception {
    long end = System.nanoTime() + duration.toNanos();
    proxy.set(mode);
    try {
      String pushed = pushChange();
      String requestedAt = requestFetch();
      RegistryFailureCheck check = new RegistryFailureCheck(status, mode, pushed, requestedAt);
      check.await(RegistryFailureCheck.BUDGET);
      check.guardUntil(end);
    } finally {
      proxy.set(Mode.PASS);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      proxy.close();
    } finally {
      registry.close();
    }
  }
}
