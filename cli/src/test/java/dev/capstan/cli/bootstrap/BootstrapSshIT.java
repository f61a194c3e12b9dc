package dev.capstan.cli.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.CliRun;
import dev.capstan.source.testing.SshGitServer;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.Set;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstan bootstrap git} over SSH: the push with the key and the known host given, and the
 * engine's fetch with the same two from the Secret the bootstrap created.
 */
@ExtendWith(KubernetesCluster.class)
class BootstrapSshIT {

  @Test
  void pushesAndSyncsWithAnSshKey(
      KubernetesClient client, TestNamespace namespace, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    String ns = namespace.name();
    Path bare = dir.resolve("repos/fleet");
    BootstrapFixture.bareRepository(bare);
    KeyPair key = SshGitServer.newKeyPair();
    ByteArrayOutputStream pem = new ByteArrayOutputStream();
    OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(key, "test", null, pem);
    Path identity = Files.write(dir.resolve("id"), pem.toByteArray());
    try (SshGitServer server = SshGitServer.start(dir.resolve("repos"), key.getPublic());
        BootstrapFixture fixture = new BootstrapFixture(client, ns, dir.resolve("artifacts"))) {
      Path knownHosts = Files.writeString(dir.resolve("known_hosts"), server.knownHostsLine());
      CliRun run =
          CliRun.capstan(
              access.kubeconfig(),
              "bootstrap",
              "git",
              "--url",
              server.url("fleet"),
              "--path",
              "clusters/ssh",
              "--namespace",
              ns,
              "--private-key-file",
              identity.toString(),
              "--known-hosts-file",
              knownHosts.toString(),
              "--timeout",
              "3m");
      assertEquals(0, run.exitCode(), run::toString);
      String head;
      try (Repository repository = Git.open(bare.toFile()).getRepository()) {
        head = repository.resolve(Constants.R_HEADS + "main").getName();
      }
      assertTrue(run.out().contains("is Ready at main@sha1:" + head), run::toString);
      Secret secret = client.secrets().inNamespace(ns).withName(ns).get();
      assertEquals(Set.of("identity", "known_hosts"), secret.getData().keySet());
      assertFalse(run.toString().contains("PRIVATE KEY"), run::toString);
      assertEquals("True", BootstrapFixture.ready(fixture.gitRepository().get()));
    }
  }
}
