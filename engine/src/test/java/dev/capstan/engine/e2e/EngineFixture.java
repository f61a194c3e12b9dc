package dev.capstan.engine.e2e;

import static org.awaitility.Awaitility.await;

import dev.capstan.api.common.ReconciledStatus;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.Engine;
import dev.capstan.engine.EngineExtension;
import dev.capstan.engine.EngineOptions;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.testing.CapstanCrds;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Assertions;

/**
 * An engine running in the test's JVM against the test cluster. Each fixture reconciles only the
 * objects carrying its own shard label, so test classes (and anything else on the cluster) never
 * reconcile each other's objects.
 */
final class EngineFixture implements AutoCloseable {
  static final String SHARD_LABEL = "capstan.dev/test-shard";

  final KubernetesClient client;
  final String namespace;
  final String shard = "s" + UUID.randomUUID().toString().substring(0, 8);
  private final UnaryOperator<EngineOptions> settings;
  private final List<EngineExtension> extensions;
  Path storage;
  Engine engine;

  private EngineFixture(
      KubernetesClient client,
      String namespace,
      UnaryOperator<EngineOptions> settings,
      List<EngineExtension> extensions)
      throws IOException {
    this.client = client;
    this.namespace = namespace;
    CapstanCrds.install(client);
    this.settings = settings;
    this.extensions = extensions;
    this.storage = Files.createTempDirectory("capstan-artifacts");
    this.engine = newEngine();
    try {
      engine.start();
    } catch (RuntimeException e) {
      try {
        engine.close(); // its reconcile threads are not daemons
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  private Engine newEngine() {
    return new Engine(
        settings.apply(
            EngineOptions.defaults(storage)
                .withWatchLabelSelector(Optional.of(SHARD_LABEL + "=" + shard))
                .withWaitPoll(Duration.ofSeconds(1))),
        client,
        extensions);
  }

  /**
   * Stops the engine and starts a new one on an empty artifact store, as a restarted pod's
   * emptyDir; the objects stay.
   */
  void restartWithEmptyStore() throws IOException {
    engine.close();
    storage = Files.createTempDirectory("capstan-artifacts");
    engine = newEngine();
    engine.start();
  }

  /** A client like the one {@code capstan run} builds. */
  static KubernetesClient client(Path kubeconfig) {
    try {
      return new KubernetesClientBuilder()
          .withConfig(
              Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString()))
          .build();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static EngineFixture start(KubernetesClient client, String namespace) {
    return start(client, namespace, o -> o);
  }

  /** An engine whose options are the test defaults changed by {@code settings}. */
  static EngineFixture start(
      KubernetesClient client, String namespace, UnaryOperator<EngineOptions> settings) {
    return start(client, namespace, settings, List.of());
  }

  /**
   * An engine with extensions (metrics, ...) besides the test defaults changed by {@code settings}.
   */
  static EngineFixture start(
      KubernetesClient client,
      String namespace,
      UnaryOperator<EngineOptions> settings,
      List<EngineExtension> extensions) {
    try {
      return new EngineFixture(client, namespace, settings, extensions);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static ConditionFactory eventually(Duration atMost) {
    return await().atMost(atMost).pollInterval(Duration.ofMillis(200)).ignoreExceptions();
  }

  /** Creates a GitRepository following {@code main} of {@code url}. */
  void gitRepository(String name, String url) {
    create(
        GitRepository.class,
        """
        apiVersion: source.capstan.dev/v1
        kind: GitRepository
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec: {url: "%s", ref: {branch: main}, interval: 10m}
        """
            .formatted(name, namespace, SHARD_LABEL, shard, url));
  }

  /**
   * Creates a GitRepository following {@code main} of {@code url}; {@code extraSpec} is YAML
   * indented by 2.
   */
  void gitRepository(String name, String url, String extraSpec) {
    create(
        GitRepository.class,
        """
        apiVersion: source.capstan.dev/v1
        kind: GitRepository
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec:
          url: "%s"
          ref: {branch: main}
          interval: 10m
        %s
        """
            .formatted(name, namespace, SHARD_LABEL, shard, url, extraSpec.stripTrailing()));
  }

  GitRepository gitRepository(String name) {
    return client.resources(GitRepository.class).inNamespace(namespace).withName(name).get();
  }

  /** Waits until the GitRepository's condition satisfies {@code test}, and returns it as seen. */
  Condition awaitSourceCondition(
      String name, String type, Duration atMost, Predicate<Condition> test) {
    return awaitSourceCondition(GitRepository.class, name, type, atMost, test);
  }

  /**
   * Waits until the condition of the source of {@code kind} (a GitRepository, a HelmRepository...)
   * satisfies {@code test}, and returns it as seen.
   */
  <T extends CustomResource<?, ? extends ReconciledStatus>> Condition awaitSourceCondition(
      Class<T> kind, String name, String type, Duration atMost, Predicate<Condition> test) {
    AtomicReference<Condition> seen = new AtomicReference<>();
    eventually(atMost)
        .untilAsserted(
            () -> {
              ReconciledStatus status =
                  client.resources(kind).inNamespace(namespace).withName(name).get().getStatus();
              Optional<Condition> matching =
                  status == null || status.conditions() == null
                      ? Optional.empty()
                      : status.conditions().stream()
                          .filter(c -> type.equals(c.getType()))
                          .filter(test)
                          .findFirst();
              Assertions.assertTrue(
                  matching.isPresent(),
                  () -> kind.getSimpleName() + " " + name + " has status " + status);
              seen.set(matching.get());
            });
    return seen.get();
  }

  void secret(String name, Map<String, String> stringData) {
    client
        .secrets()
        .inNamespace(namespace)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .withStringData(stringData)
                .build())
        .create();
  }

  /** Creates a Kustomization; {@code extraSpec} is YAML for further spec fields, indented by 2. */
  void kustomization(String name, String source, String path, String extraSpec) {
    kustomization(name, namespace, namespace, source, path, extraSpec);
  }

  /**
   * A Kustomization in {@code inNamespace} whose source is in {@code sourceNamespace} (either may
   * differ from this fixture's namespace).
   */
  void kustomization(
      String name,
      String inNamespace,
      String sourceNamespace,
      String source,
      String path,
      String extraSpec) {
    create(
        Kustomization.class,
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec:
          sourceRef: {kind: GitRepository, name: %s, namespace: %s}
          path: "%s"
          interval: 10m
          prune: true
        %s
        """
            .formatted(
                name,
                inNamespace,
                SHARD_LABEL,
                shard,
                source,
                sourceNamespace,
                path,
                extraSpec.stripTrailing()));
  }

  private <T extends HasMetadata> void create(Class<T> type, String yaml) {
    T object =
        client
            .resources(type)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item();
    client.resource(object).create();
  }

  Kustomization kustomization(String name) {
    return client.resources(Kustomization.class).inNamespace(namespace).withName(name).get();
  }

  Optional<Condition> condition(String name, String type) {
    return KustomizationStatuses.condition(kustomization(name).getStatus(), type);
  }

  /** Waits until the condition of the Kustomization satisfies {@code test}, and returns it. */
  Condition awaitCondition(String name, String type, Duration atMost, Predicate<Condition> test) {
    // The condition that satisfied the test is returned as it was seen: reading it again could
    // return a later one, from a reconcile that started in between.
    AtomicReference<Condition> seen = new AtomicReference<>();
    eventually(atMost)
        .untilAsserted(
            () -> {
              Optional<Condition> matching = condition(name, type).filter(test);
              Assertions.assertTrue(
                  matching.isPresent(),
                  () -> "Kustomization " + name + " has status " + kustomization(name).getStatus());
              seen.set(matching.get());
            });
    return seen.get();
  }

  /**
   * Asks the Kustomization for a reconcile and waits until its status says it handled the request
   * (after that reconcile's apply).
   */
  void reconcileAndWait(String name, Duration atMost) {
    String requestedAt = Instant.now().toString() + "-" + UUID.randomUUID();
    client
        .resources(Kustomization.class)
        .inNamespace(namespace)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"reconcile.capstan.dev/requestedAt\":\""
                + requestedAt
                + "\"}}}");
    eventually(atMost)
        .until(
            () -> {
              var status = kustomization(name).getStatus();
              return status != null && requestedAt.equals(status.lastHandledReconcileAt());
            });
  }

  /** Asks for a reconcile now, as {@code capstan reconcile} does. */
  void requestReconcile(Class<? extends HasMetadata> type, String name) {
    // A merge patch, not a read-modify-write: status writes must not make it conflict.
    client
        .resources(type)
        .inNamespace(namespace)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"reconcile.capstan.dev/requestedAt\":\""
                + Instant.now()
                + "\"}}}");
  }

  /**
   * Deletes this fixture's Kustomizations (the engine removes its finalizers), then stops the
   * engine.
   */
  @Override
  public void close() {
    try {
      client
          .resources(Kustomization.class)
          .inNamespace(namespace)
          .withLabel(SHARD_LABEL, shard)
          .delete();
      eventually(Duration.ofSeconds(60))
          .until(
              () ->
                  client
                      .resources(Kustomization.class)
                      .inNamespace(namespace)
                      .withLabel(SHARD_LABEL, shard)
                      .list()
                      .getItems()
                      .isEmpty());
    } finally {
      engine.close();
      client.close();
    }
  }
}
