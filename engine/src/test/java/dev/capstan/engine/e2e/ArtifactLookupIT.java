package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A build reads the engine's own artifact store, looked up by the digest a GitRepository's status
 * names; the status's path is never read. Whoever may write {@code gitrepositories/status} can at
 * most name another digest of the store, not a directory of the engine.
 */
class ArtifactLookupIT extends EngineTestBase {

  @Test
  void aStatusPathOutsideTheStoreIsNeverBuilt(@TempDir Path elsewhere) throws Exception {
    Files.writeString(
        elsewhere.resolve("planted.yaml"),
        """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: planted}
        data: {from: engine-disk}
        """);
    forgedRepository(
        "forged",
        new Artifact(
            "main@sha1:" + "1".repeat(40), "sha256:" + "0".repeat(64), elsewhere.toString(), null));
    engine.kustomization("forged-app", "forged", "./", "  retryInterval: 2s");

    var failed =
        engine.awaitCondition(
            "forged-app",
            "Ready",
            Duration.ofSeconds(60),
            c -> "ArtifactFailed".equals(c.getReason()));
    assertTrue(failed.getMessage().endsWith("is not in local storage"), failed.getMessage());
    assertNull(engine.client.configMaps().inNamespace(ns()).withName("planted").get());
  }

  @Test
  void aStoredDigestIsBuiltFromTheStoreWhateverPathTheStatusNames() throws Exception {
    git.commit(
        Map.of(
            "app/cm.yaml",
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: from-store}
            data: {from: git}
            """));
    engine.gitRepository("real", git.url());
    Artifact stored =
        EngineFixture.eventually(Duration.ofSeconds(60))
            .until(() -> artifactOf("real"), a -> a != null && a.digest() != null);
    forgedRepository("renamed", new Artifact(stored.revision(), stored.digest(), "/", null));
    engine.kustomization("renamed-app", "renamed", "./app", "");

    engine.awaitCondition("renamed-app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    assertEquals(
        "git",
        engine
            .client
            .configMaps()
            .inNamespace(ns())
            .withName("from-store")
            .get()
            .getData()
            .get("from"));
  }

  /**
   * A suspended GitRepository (the engine leaves its status alone) whose status says {@code
   * artifact}.
   */
  private static void forgedRepository(String name, Artifact artifact) {
    GitRepository repo =
        engine
            .client
            .resources(GitRepository.class)
            .load(
                new ByteArrayInputStream(
                    """
                    apiVersion: source.capstan.dev/v1
                    kind: GitRepository
                    metadata: {name: %s, namespace: %s, labels: {%s: %s}}
                    spec: {url: "https://git.invalid/repo.git", ref: {branch: main}, interval: 10m, suspend: true}
                    """
                        .formatted(name, ns(), EngineFixture.SHARD_LABEL, engine.shard)
                        .getBytes(StandardCharsets.UTF_8)))
            .item();
    GitRepository created = engine.client.resource(repo).create();
    created.setStatus(new GitRepositoryStatus(null, List.of(), artifact, null));
    engine.client.resource(created).updateStatus();
  }

  private static Artifact artifactOf(String name) {
    GitRepository repo =
        engine.client.resources(GitRepository.class).inNamespace(ns()).withName(name).get();
    return repo == null || repo.getStatus() == null ? null : repo.getStatus().artifact();
  }
}
