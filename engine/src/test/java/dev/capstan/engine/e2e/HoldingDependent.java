package dev.capstan.engine.e2e;

import dev.capstan.api.kustomize.Kustomization;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * A tenant's Kustomization made to hold another's deletion: it depends on the victim, declares a
 * timeout of ten years, and carries a finalizer of the tenant's own, so that once deleted it stays
 * being deleted until the test lets it go.
 */
final class HoldingDependent {
  static final String HOLD = "capstan.dev/test-hold";

  private final EngineFixture engine;
  private final String namespace;
  private final String name;

  private HoldingDependent(EngineFixture engine, String namespace, String name) {
    this.engine = engine;
    this.namespace = namespace;
    this.name = name;
  }

  /**
   * Creates {@code namespace/name}, depending on {@code victim} in {@code victimNamespace}; it
   * takes its source, {@code source} at {@code path}, from the fixture's namespace.
   */
  static HoldingDependent create(
      EngineFixture engine,
      String namespace,
      String name,
      String victimNamespace,
      String victim,
      String source,
      String path) {
    String yaml =
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata:
          name: %s
          namespace: %s
          labels: {%s: %s}
          finalizers: [%s]
        spec:
          sourceRef: {kind: GitRepository, name: %s, namespace: %s}
          path: "%s"
          interval: 10m
          timeout: 87600h
          prune: true
          dependsOn: [{name: %s, namespace: %s}]
        """
            .formatted(
                name,
                namespace,
                EngineFixture.SHARD_LABEL,
                engine.shard,
                HOLD,
                source,
                engine.namespace,
                path,
                victim,
                victimNamespace);
    Kustomization holder =
        engine
            .client
            .resources(Kustomization.class)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item();
    engine.client.resource(holder).create();
    return new HoldingDependent(engine, namespace, name);
  }

  /**
   * Deletes it, and waits until the engine is done with it: only the tenant's finalizer keeps it.
   */
  void deleteAndHold() {
    engine.client.resources(Kustomization.class).inNamespace(namespace).withName(name).delete();
    EngineFixture.eventually(Duration.ofSeconds(60))
        .until(
            () -> {
              Kustomization ks = get();
              return ks != null
                  && ks.getMetadata().getDeletionTimestamp() != null
                  && ks.getMetadata().getFinalizers().equals(List.of(HOLD));
            });
  }

  /** Lets it go: its finalizer removed, if it is still there. */
  void release() {
    if (get() != null) {
      engine
          .client
          .resources(Kustomization.class)
          .inNamespace(namespace)
          .withName(name)
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
    }
  }

  private Kustomization get() {
    return engine.client.resources(Kustomization.class).inNamespace(namespace).withName(name).get();
  }
}
