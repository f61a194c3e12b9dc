package dev.capstan.cli.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.CliRun;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.install.InstallManifests;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code bootstrap git} writes and refuses, before it reaches a repository or a cluster. */
class BootstrapOptionsTest {

  @Test
  void aPathMustStayInsideTheRepository() {
    assertEquals("clusters/my-cluster", RepositoryPath.of("./clusters//my-cluster/"));
    for (String bad : new String[] {"", ".", "/etc", "clusters/../..", "a/.git/hooks", "a\\b"}) {
      CliException e = assertThrows(CliException.class, () -> RepositoryPath.of(bad), bad);
      assertEquals(CliException.BAD_INPUT, e.exitCode());
    }
  }

  @Test
  void aPasswordInTheUrlIsRefusedBecauseTheUrlIsCommitted() {
    CliException e =
        assertThrows(
            CliException.class,
            () -> BootstrapGitCommand.refusePasswordInUrl("https://me:s3cret@git.example/fleet"));
    assertEquals(CliException.BAD_INPUT, e.exitCode());
    assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
    BootstrapGitCommand.refusePasswordInUrl("https://git.example/fleet");
    BootstrapGitCommand.refusePasswordInUrl("ssh://git@git.example/fleet");
    BootstrapGitCommand.refusePasswordInUrl("git@git.example:fleet.git");
  }

  @Test
  void theSyncObjectsFollowTheBranchAndApplyThePath() {
    SyncManifests sync =
        new SyncManifests("gitops", "https://git.example/fleet", "prod", "clusters/a", "2m", null);
    GenericKubernetesResource repository = sync.gitRepository();
    assertEquals("gitops", repository.getMetadata().getName());
    assertEquals("gitops", repository.getMetadata().getNamespace());
    Map<?, ?> spec = (Map<?, ?>) repository.getAdditionalProperties().get("spec");
    assertEquals(Map.of("branch", "prod"), spec.get("ref"));
    assertEquals("2m", spec.get("interval"));
    assertFalse(spec.containsKey("secretRef"));
    Map<?, ?> ks = (Map<?, ?>) sync.kustomization().getAdditionalProperties().get("spec");
    assertEquals("./clusters/a", ks.get("path"));
    assertEquals(Map.of("kind", "GitRepository", "name", "gitops"), ks.get("sourceRef"));
    assertEquals(true, ks.get("prune"));
    String kustomization = SyncManifests.kustomizationFile();
    assertTrue(kustomization.contains("- capstan-components.yaml"), kustomization);
    assertTrue(kustomization.contains("- capstan-sync.yaml"), kustomization);
  }

  @Test
  void credentialsGivenAsOptionsGoToASecretNamedAfterTheNamespace() {
    GitCredentials given = new GitCredentials();
    given.username = "bot";
    given.password = "s3cret";
    given.check();
    assertEquals("gitops", given.secretName("gitops"));
    GitCredentials.Resolved resolved = given.resolve(null, "gitops");
    assertEquals("gitops", resolved.toCreate().getMetadata().getName());
    assertEquals(Map.of("username", "Ym90", "password", "czNjcmV0"), resolved.toCreate().getData());
    assertEquals("bot", new String(resolved.data().get("username"), StandardCharsets.UTF_8));
    SyncManifests sync = new SyncManifests("gitops", "u", "main", "p", "1m", "gitops");
    String yaml = InstallManifests.yaml(List.of(sync.gitRepository()));
    assertTrue(yaml.contains("secretRef"), yaml);
    assertFalse(yaml.contains("s3cret"), yaml);

    GitCredentials none = new GitCredentials();
    assertNull(none.secretName("gitops"));
    assertTrue(none.resolve(null, "gitops").data().isEmpty());
    assertNull(none.resolve(null, "gitops").toCreate());
  }

  @Test
  void anSshKeyAndItsKnownHostsGoToTheSecretUnderTheGitRepositorysKeys(@TempDir Path dir)
      throws Exception {
    GitCredentials ssh = new GitCredentials();
    ssh.privateKeyFile = Files.writeString(dir.resolve("id"), "KEY");
    ssh.knownHostsFile = Files.writeString(dir.resolve("hosts"), "[127.0.0.1]:2222 ssh-ed25519 A");
    ssh.check();
    assertEquals("gitops", ssh.secretName("gitops"));
    Map<String, byte[]> data = ssh.resolve(null, "gitops").data();
    assertEquals(List.of("identity", "known_hosts"), List.copyOf(data.keySet()));
    assertEquals("KEY", new String(data.get("identity"), StandardCharsets.UTF_8));

    CliRun noHosts =
        CliRun.run(
            "bootstrap",
            "git",
            "--url",
            "ssh://git@h/r",
            "--path",
            "c",
            "--private-key-file",
            ssh.privateKeyFile.toString());
    assertEquals(2, noHosts.exitCode(), noHosts::toString);
    assertTrue(noHosts.err().contains("--known-hosts-file"), noHosts::toString);
  }

  @Test
  void credentialOptionsThatDoNotGoTogetherAreBadInput() {
    CliRun half =
        CliRun.run("bootstrap", "git", "--url", "http://h/r", "--path", "c", "--username", "bot");
    assertEquals(2, half.exitCode(), half::toString);
    assertTrue(half.err().contains("--username and --password go together"), half::toString);
    CliRun both =
        CliRun.run(
            "bootstrap",
            "git",
            "--url",
            "http://h/r",
            "--path",
            "c",
            "--secret-ref",
            "git",
            "-u",
            "bot",
            "-p",
            "x");
    assertEquals(2, both.exitCode(), both::toString);
    assertFalse(both.err().contains("x\n"), both::toString);
    CliRun path = CliRun.run("bootstrap", "git", "--url", "http://h/r", "--path", "../up");
    assertEquals(2, path.exitCode(), path::toString);
    CliRun interval =
        CliRun.run("bootstrap", "git", "--url", "http://h/r", "--path", "c", "--interval", "soon");
    assertEquals(2, interval.exitCode(), interval::toString);
    assertTrue(interval.err().contains("--interval"), interval::toString);
  }
}
