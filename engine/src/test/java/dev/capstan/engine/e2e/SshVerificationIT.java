package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.testing.SshTestKey;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec.verify with SSH keys end to end: commits signed by git itself with keys made by ssh-keygen,
 * the trusted public key in a Secret's {@code .sshpub} entry, as a Flux user writes it.
 */
class SshVerificationIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void onlyCommitsSignedByATrustedSshKeyAreApplied(@TempDir Path keys) {
    SshTestKey trusted = SshTestKey.generate(keys, "release", "ed25519");
    SshTestKey stranger = SshTestKey.generate(keys, "stranger", "ed25519");
    engine.secret("ssh-keys", Map.of("release.sshpub", trusted.publicKey() + "\n"));
    String signed =
        git.commitSshSigned(
            Map.of("ssh/cm.yaml", Manifests.configMap("ssh-verified", "1")), trusted);
    engine.gitRepository(
        "ssh-signed",
        git.url(),
        """
          verify: {mode: HEAD, secretRef: {name: ssh-keys}}
        """);
    engine.kustomization("ssh-verified", "ssh-signed", "./ssh", "");

    Condition verified =
        engine.awaitSourceCondition("ssh-signed", "SourceVerified", WAIT, EngineTestBase::isTrue);
    assertEquals("Succeeded", verified.getReason());
    assertEquals(
        "verified signature of commit '"
            + signed.substring("main@sha1:".length())
            + "' with key '"
            + trusted.fingerprint()
            + "'",
        verified.getMessage());
    engine.awaitSourceCondition("ssh-signed", "Ready", WAIT, EngineTestBase::isTrue);
    engine.awaitCondition("ssh-verified", "Ready", WAIT, EngineTestBase::isTrue);
    assertEquals("1", configMapValue("ssh-verified"));

    String foreign =
        git.commitSshSigned(
            Map.of("ssh/cm.yaml", Manifests.configMap("ssh-verified", "2")), stranger);
    engine.requestReconcile(GitRepository.class, "ssh-signed");
    Condition refused =
        engine.awaitSourceCondition("ssh-signed", "SourceVerified", WAIT, EngineTestBase::isFalse);
    assertEquals("VerificationError", refused.getReason());
    assertEquals(
        "commit '"
            + foreign.substring("main@sha1:".length())
            + "' is signed with SSH key "
            + stranger.fingerprint()
            + ", which is not one of the trusted keys",
        refused.getMessage());
    Condition ready =
        engine.awaitSourceCondition("ssh-signed", "Ready", WAIT, EngineTestBase::isFalse);
    assertEquals("VerificationError", ready.getReason());
    assertEquals(
        signed,
        engine.gitRepository("ssh-signed").getStatus().artifact().revision(),
        "the last verified artifact is kept");

    engine.requestReconcile(Kustomization.class, "ssh-verified");
    engine.awaitCondition(
        "ssh-verified", "Ready", WAIT, c -> isTrue(c) && c.getMessage().contains(signed));
    assertEquals("1", configMapValue("ssh-verified"), "the unverified revision is not applied");
  }

  private static String configMapValue(String name) {
    var cm = engine.client.configMaps().inNamespace(ns()).withName(name).get();
    return cm == null ? null : cm.getData().get("value");
  }
}
