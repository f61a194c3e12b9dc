package dev.capstan.source.git;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.testing.SshGitServer;
import dev.capstan.source.testing.TestRepo;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fetches over SSH from an in-process Apache MINA sshd server with key authentication. */
class SshFetchIT {

  @TempDir static Path tmp;
  static TestRepo repo;
  static RevCommit head;
  static KeyPair clientKey;
  static SshGitServer server;

  @BeforeAll
  static void startServer() throws Exception {
    repo = TestRepo.create(tmp.resolve("served/app"));
    head = repo.commit("first", Map.of("deploy.yaml", "kind: ConfigMap\n"));
    clientKey = SshGitServer.newKeyPair();
    server = SshGitServer.start(tmp.resolve("served"), clientKey.getPublic());
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
    repo.close();
  }

  private GitSource newSource(String name) {
    return new GitSource(
        GitSourceOptions.at(tmp.resolve("store-" + name))
            .withRetry(new RetryPolicy(2, Duration.ofMillis(1), 2.0)));
  }

  private static byte[] privateKey(KeyPair key, String passphrase) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OpenSSHKeyEncryptionContext encryption = null;
    if (passphrase != null) {
      encryption = new OpenSSHKeyEncryptionContext();
      encryption.setPassword(passphrase);
      encryption.setCipherName("AES");
      encryption.setCipherMode("CTR");
      encryption.setCipherType("256");
    }
    OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(key, "test", encryption, out);
    return out.toByteArray();
  }

  private static Map<String, byte[]> secret(byte[] identity, String knownHosts) {
    Map<String, byte[]> data = new HashMap<>();
    data.put("identity", identity);
    if (knownHosts != null) {
      data.put("known_hosts", knownHosts.getBytes(UTF_8));
    }
    return data;
  }

  @Test
  void fetchesWithPrivateKeyAndKnownHosts() throws Exception {
    GitSource source = newSource("plain");
    FetchRequest request =
        FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
            .withSecretData(secret(privateKey(clientKey, null), server.knownHostsLine()));
    StoredArtifact a = assertInstanceOf(FetchResult.Fetched.class, source.fetch(request)).current();
    assertEquals("main@sha1:" + head.name(), a.revision());
    assertInstanceOf(FetchResult.Unchanged.class, source.fetch(request));
  }

  @Test
  void fetchesWithPassphraseProtectedKey() throws Exception {
    Map<String, byte[]> data =
        secret(privateKey(clientKey, "correct horse"), server.knownHostsLine());
    data.put("password", "correct horse".getBytes(UTF_8));
    FetchResult result =
        newSource("passphrase")
            .fetch(
                FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
                    .withSecretData(data));
    assertInstanceOf(FetchResult.Fetched.class, result, String.valueOf(result));

    data.put("password", "wrong horse".getBytes(UTF_8));
    FetchResult.Failed wrong =
        assertInstanceOf(
            FetchResult.Failed.class,
            newSource("pp2")
                .fetch(
                    FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
                        .withSecretData(data)));
    assertEquals(FailureReason.INVALID_SECRET, wrong.reason(), wrong.message());
    assertFalse(wrong.message().contains("wrong horse"));
  }

  @Test
  void unauthorizedKeyIsAnAuthenticationFailure() throws Exception {
    FetchResult.Failed f =
        assertInstanceOf(
            FetchResult.Failed.class,
            newSource("wrongkey")
                .fetch(
                    FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
                        .withSecretData(
                            secret(
                                privateKey(SshGitServer.newKeyPair(), null),
                                server.knownHostsLine()))));
    assertEquals(FailureReason.AUTHENTICATION_FAILED, f.reason(), f.message());
  }

  @Test
  void unknownHostKeyIsRejected() throws Exception {
    String otherHostKey =
        "[127.0.0.1]:"
            + server.port()
            + " "
            + PublicKeyEntry.toString(SshGitServer.newKeyPair().getPublic())
            + "\n";
    String otherHost = server.knownHostsLine().replace("127.0.0.1", "10.1.2.3");
    for (String knownHosts : new String[] {otherHostKey, otherHost, null}) {
      FetchResult.Failed f =
          assertInstanceOf(
              FetchResult.Failed.class,
              newSource("hk")
                  .fetch(
                      FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
                          .withSecretData(secret(privateKey(clientKey, null), knownHosts))));
      assertEquals(FailureReason.HOST_KEY_REJECTED, f.reason(), f.message());
      assertTrue(f.message().contains("127.0.0.1"), f.message());
    }
  }

  @Test
  void keepsLastGoodArtifactWhenHostKeyChanges() throws Exception {
    GitSource source = newSource("keep");
    FetchRequest request =
        FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
            .withSecretData(secret(privateKey(clientKey, null), server.knownHostsLine()));
    StoredArtifact good =
        assertInstanceOf(FetchResult.Fetched.class, source.fetch(request)).current();
    FetchResult.Failed f =
        assertInstanceOf(
            FetchResult.Failed.class,
            source.fetch(
                request
                    .withSecretData(secret(privateKey(clientKey, null), ""))
                    .withRef(GitRef.tag("x"))));
    assertEquals(good, f.lastGood().orElseThrow());
  }
}
