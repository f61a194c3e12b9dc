package dev.capstan.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class ClusterOptionsTest {

  @TempDir Path dir;

  @Command(name = "probe")
  static final class Probe {
    @Mixin ClusterOptions cluster = new ClusterOptions();
  }

  private ClusterOptions parse(String... args) {
    Probe probe = new Probe();
    new CommandLine(probe).parseArgs(args);
    return probe.cluster;
  }

  private Path twoContexts() throws Exception {
    Path file = dir.resolve("two");
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - {name: a, cluster: {server: "https://a.example.invalid:6443"}}
        - {name: b, cluster: {server: "https://b.example.invalid:6443"}}
        users:
        - {name: u, user: {token: not-a-secret}}
        contexts:
        - {name: first, context: {cluster: a, user: u, namespace: team-a}}
        - {name: second, context: {cluster: b, user: u}}
        current-context: first
        """);
    return file;
  }

  @Test
  void theCurrentContextIsTheDefault() throws Exception {
    try (CommandClient opened = parse("--kubeconfig", twoContexts().toString()).open()) {
      KubernetesClient client = opened.client();
      assertEquals("https://a.example.invalid:6443/", client.getMasterUrl().toString());
      assertEquals("team-a", ClusterOptions.namespace(client, null));
      assertEquals("given", ClusterOptions.namespace(client, "given"));
    }
  }

  @Test
  void contextChoosesTheServerAndNamespace() throws Exception {
    try (CommandClient opened =
        parse("--kubeconfig", twoContexts().toString(), "--context", "second").open()) {
      KubernetesClient client = opened.client();
      assertEquals("https://b.example.invalid:6443/", client.getMasterUrl().toString());
      assertEquals(
          "default", ClusterOptions.namespace(client, null), "the context names no namespace");
    }
  }

  @Test
  void aCommandLineClientRetriesBrieflyTheControllersLonger() throws Exception {
    ClusterOptions options = parse("--kubeconfig", twoContexts().toString(), "--context", "second");
    try (CommandClient opened = options.open();
        KubernetesClient controller = options.openForController()) {
      KubernetesClient command = opened.client();
      assertEquals(3, command.getConfiguration().getRequestRetryBackoffLimit());
      assertEquals(100, command.getConfiguration().getRequestRetryBackoffInterval());
      assertEquals(5_000, command.getConfiguration().getConnectionTimeout());
      assertTrue(controller.getConfiguration().getRequestRetryBackoffLimit() > 3);
      assertEquals("https://b.example.invalid:6443/", controller.getMasterUrl().toString());
    }
  }

  @Test
  void theControllerNamesItselfCapstanOrAsFabric8sPropertySaysEvenWithAKubeconfigPath()
      throws Exception {
    ClusterOptions options = parse("--kubeconfig", twoContexts().toString());
    try (KubernetesClient controller = options.openForController()) {
      assertTrue(
          controller.getConfiguration().getUserAgent().startsWith("capstan/"),
          controller.getConfiguration().getUserAgent());
    }
    String before = System.getProperty("kubernetes.user.agent");
    System.setProperty("kubernetes.user.agent", "capstan-faults/engine-1");
    try (KubernetesClient controller = options.openForController()) {
      assertEquals("capstan-faults/engine-1", controller.getConfiguration().getUserAgent());
    } finally {
      if (before == null) {
        System.clearProperty("kubernetes.user.agent");
      } else {
        System.setProperty("kubernetes.user.agent", before);
      }
    }
  }

  @Test
  void aMalformedKubeconfigIsOneLineNamingTheFileAndWhereTheYamlBroke() throws Exception {
    Path kubeconfig = dir.resolve("config");
    Files.writeString(kubeconfig, "apiVersion: v1\nclusters: [is not, s3cr3t\n");
    ClusterOptions options = parse("--kubeconfig", kubeconfig.toString());
    KubeconfigProblem e = assertThrows(KubeconfigProblem.class, options::open);
    assertTrue(
        e.getMessage().startsWith("cannot read the kubeconfig " + kubeconfig + ": "),
        e.getMessage());
    assertTrue(e.getMessage().contains("(line 2, column 11)"), e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    assertFalse(
        e.getMessage().contains("s3cr3t"), "the file's text is never quoted: " + e.getMessage());
  }

  @Test
  void aMissingKubeconfigIsOneLineNamingTheFile() {
    Path missing = dir.resolve("nowhere");
    KubeconfigProblem e =
        assertThrows(KubeconfigProblem.class, parse("--kubeconfig", missing.toString())::open);
    assertEquals("kubeconfig " + missing + " does not exist or cannot be read", e.getMessage());
  }
}
