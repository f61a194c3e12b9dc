package dev.capstan.source.git;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.git.transport.UrlScheme;
import dev.capstan.source.testing.SshGitServer;
import dev.capstan.source.testing.TestRepo;
import java.io.ByteArrayOutputStream;
import java.net.BindException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Map;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scp-like form {@code git@host:path} carries no port, so it is fetched from an SSH server on
 * port 22 of the loopback address. Binding port 22 needs root, which CI has; elsewhere the test is
 * skipped with the reason, never in CI.
 */
class ScpLikeUrlIT {

  @Test
  void fetchesAnScpLikeUrl(@TempDir Path tmp) throws Exception {
    TestRepo repo = TestRepo.create(tmp.resolve("served/app"));
    RevCommit head = repo.commit("first", Map.of("deploy.yaml", "kind: ConfigMap\n"));
    KeyPair clientKey = SshGitServer.newKeyPair();
    SshGitServer server;
    try {
      server = SshGitServer.start(tmp.resolve("served"), clientKey.getPublic(), 22);
    } catch (BindException e) {
      boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
      Assumptions.assumeTrue(
          ci, "port 22 on 127.0.0.1 cannot be bound here (" + e.getMessage() + ")");
      throw e;
    }
    try (server;
        repo) {
      ByteArrayOutputStream key = new ByteArrayOutputStream();
      OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(clientKey, "test", null, key);
      GitSource source =
          new GitSource(
              GitSourceOptions.at(tmp.resolve("store"))
                  .withAllowedSchemes(UrlScheme.all())
                  .withRetry(new RetryPolicy(1, Duration.ofMillis(1), 2.0)));

      FetchResult result =
          source.fetch(
              FetchRequest.of("ns/app", "git@127.0.0.1:app", GitRef.branch("main"))
                  .withSecretData(
                      Map.of(
                          "identity",
                          key.toByteArray(),
                          "known_hosts",
                          server.knownHostsLine().getBytes(UTF_8))));

      StoredArtifact artifact =
          assertInstanceOf(FetchResult.Fetched.class, result, String.valueOf(result)).current();
      assertEquals("main@sha1:" + head.name(), artifact.revision());
    }
  }
}
