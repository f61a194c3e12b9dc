package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * spec.buildMetadata: kustomize's originAnnotations reach the applied objects; and
 * status.lastAppliedOriginRevision: what the source's artifact records as its origin (a Git
 * artifact records none; a source that does fills {@code status.artifact.metadata}).
 */
class BuildMetadataIT extends EngineTestBase {

  private static ConfigMap applied(String name) {
    return engine.client.configMaps().inNamespace(ns()).withName(name).get();
  }

  @Test
  void originAnnotationsNameTheFileEachObjectCameFrom() {
    git.commit(Map.of("meta/nested/settings.yaml", Manifests.configMap("with-origin", "1")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("meta", "repo", "./meta", "  buildMetadata: [originAnnotations]\n");
    engine.awaitCondition("meta", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);

    assertEquals(
        "path: nested/settings.yaml\n",
        applied("with-origin").getMetadata().getAnnotations().get("config.kubernetes.io/origin"));
  }

  @Test
  void theOriginRevisionOfTheArtifactIsRecordedWhenItIsApplied() {
    String revision = git.commit(Map.of("origin/settings.yaml", Manifests.configMap("o", "1")));
    engine.gitRepository("repo-origin", git.url());
    engine.kustomization("origin", "repo-origin", "./origin", "");
    engine.awaitCondition("origin", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    assertNull(engine.kustomization("origin").getStatus().lastAppliedOriginRevision());

    // As a source that records where its artifact came from (an OCI artifact's annotation).
    engine
        .client
        .resources(GitRepository.class)
        .inNamespace(ns())
        .withName("repo-origin")
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"artifact\":{\"metadata\":"
                + "{\"org.opencontainers.image.revision\":\"v1.2.3@sha1:feedface\"}}}}");
    // Asked again until it is recorded: a reconcile that reads the source from the engine's cache
    // before the cache has the patch applies without it, and a change of metadata alone, with the
    // same revision and digest, starts no reconcile by itself.
    EngineFixture.eventually(Duration.ofSeconds(30))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> {
              boolean recorded =
                  "v1.2.3@sha1:feedface"
                      .equals(
                          engine.kustomization("origin").getStatus().lastAppliedOriginRevision());
              if (!recorded) {
                engine.requestReconcile(Kustomization.class, "origin");
              }
              return recorded;
            });
    var latest = engine.kustomization("origin").getStatus().history().get(0);
    assertEquals(
        Map.of("revision", revision, "originRevision", "v1.2.3@sha1:feedface"), latest.metadata());
  }
}
