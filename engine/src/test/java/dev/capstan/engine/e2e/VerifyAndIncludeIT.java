package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.IncludedArtifact;
import dev.capstan.testing.PgpTestKey;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec.verify and spec.include end to end: what a user sees on the GitRepository and what the
 * Kustomization built from it applies.
 */
class VerifyAndIncludeIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void anUnverifiedRevisionIsNotApplied() {
    PgpTestKey key = PgpTestKey.generate("Release <release@example.invalid>");
    engine.secret(
        "pgp-keys",
        Map.of("release.asc", new String(key.armoredPublicKey(), StandardCharsets.US_ASCII)));
    String signed =
        git.commitSigned(Map.of("verified/cm.yaml", Manifests.configMap("verified", "1")), key);
    engine.gitRepository(
        "signed",
        git.url(),
        """
          verify: {mode: HEAD, secretRef: {name: pgp-keys}}
        """);
    engine.kustomization("verified", "signed", "./verified", "");

    Condition verified =
        engine.awaitSourceCondition("signed", "SourceVerified", WAIT, EngineTestBase::isTrue);
    assertEquals(
        "verified signature of commit '"
            + signed.substring("main@sha1:".length())
            + "' with key '"
            + key.fingerprint()
            + "'",
        verified.getMessage());
    engine.awaitCondition("verified", "Ready", WAIT, EngineTestBase::isTrue);
    assertEquals("1", configMapValue("verified"));
    assertEquals("HEAD", engine.gitRepository("signed").getStatus().sourceVerificationMode());

    String unsigned = git.commit(Map.of("verified/cm.yaml", Manifests.configMap("verified", "2")));
    engine.requestReconcile(GitRepository.class, "signed");
    Condition refused =
        engine.awaitSourceCondition("signed", "SourceVerified", WAIT, EngineTestBase::isFalse);
    assertEquals("VerificationError", refused.getReason());
    assertEquals(
        "commit '" + unsigned.substring("main@sha1:".length()) + "' is not signed",
        refused.getMessage());
    Condition ready = engine.awaitSourceCondition("signed", "Ready", WAIT, EngineTestBase::isFalse);
    assertEquals("VerificationError", ready.getReason());
    assertEquals(
        signed,
        engine.gitRepository("signed").getStatus().artifact().revision(),
        "the last verified artifact is kept");

    engine.requestReconcile(Kustomization.class, "verified");
    engine.awaitCondition(
        "verified", "Ready", WAIT, c -> isTrue(c) && c.getMessage().contains(signed));
    assertEquals("1", configMapValue("verified"), "the unverified revision is not applied");
  }

  @Test
  void anIncludedRepositoryIsCopiedInAndFollowed(@TempDir Path libDir) {
    git.commit(Map.of("own/readme.txt", "own content\n"));
    try (GitFixture lib = GitFixture.create(libDir)) {
      String lib1 = lib.commit(Map.of("deploy/cm.yaml", Manifests.configMap("included", "a")));
      engine.gitRepository(
          "with-lib",
          git.url(),
          """
            include:
            - {repository: {name: lib}, fromPath: deploy, toPath: vendor/lib}
          """);
      engine.kustomization("included", "with-lib", "./vendor/lib", "");

      Condition missing =
          engine.awaitSourceCondition(
              "with-lib", "Ready", WAIT, c -> "IncludeUnavailable".equals(c.getReason()));
      assertEquals("False", missing.getStatus());
      assertEquals("included GitRepository '" + ns() + "/lib' not found", missing.getMessage());
      assertEquals(
          "True",
          engine
              .awaitSourceCondition("with-lib", "IncludeUnavailable", WAIT, c -> true)
              .getStatus());

      engine.gitRepository("lib", lib.url());
      engine.awaitSourceCondition("with-lib", "Ready", WAIT, EngineTestBase::isTrue);
      assertEquals(
          List.of(lib1),
          engine.gitRepository("with-lib").getStatus().includedArtifacts().stream()
              .map(IncludedArtifact::revision)
              .toList());
      engine.awaitCondition("included", "Ready", WAIT, EngineTestBase::isTrue);
      assertEquals("a", configMapValue("included"));

      String digest1 = engine.gitRepository("with-lib").getStatus().artifact().digest();
      String lib2 = lib.commit(Map.of("deploy/cm.yaml", Manifests.configMap("included", "b")));
      engine.requestReconcile(GitRepository.class, "lib");
      EngineFixture.eventually(WAIT).until(() -> "b".equals(configMapValue("included")));
      var status = engine.gitRepository("with-lib").getStatus();
      assertEquals(
          List.of(lib2),
          status.includedArtifacts().stream().map(IncludedArtifact::revision).toList());
      assertTrue(
          !digest1.equals(status.artifact().digest()), "the included revision changes the digest");
    }
  }

  private static String configMapValue(String name) {
    var cm = engine.client.configMaps().inNamespace(ns()).withName(name).get();
    return cm == null ? null : cm.getData().get("value");
  }
}
