package dev.capstan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.RepoRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/capstan}, the launcher users run: it keeps a class-data sharing archive per
 * subcommand, written by the first run that did the command's whole work.
 */
class LauncherIT {

  @TempDir Path cache;
  @TempDir Path work;

  @Test
  void writesTheArchiveOnlyAfterARunThatDidItsWork() throws Exception {
    Path manifests = Files.createDirectories(work.resolve("app"));
    Files.writeString(
        manifests.resolve("cm.yaml"),
        "apiVersion: v1\n"
            + "kind: ConfigMap\n"
            + "metadata: {name: settings, namespace: demo}\n"
            + "data: {a: b}\n");
    Path unreachable = work.resolve("kubeconfig");
    Files.writeString(
        unreachable,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        current-context: x
        """);

    Run failed = launch(unreachable, "apply", "-f", manifests.toString());
    assertEquals(1, failed.exit(), failed.output());
    assertTrue(
        failed.output().contains("cannot reach the cluster at https://127.0.0.1:1"),
        failed.output());
    assertTrue(
        failed.output().lines().count() == 1, "one line, no stack trace: " + failed.output());
    assertEquals(List.of(), archives(), "a run that could not do its work keeps no archive");

    Run first = launch(unreachable, "build", "-f", manifests.toString());
    assertEquals(0, first.exit(), first.output());
    assertEquals(1, archives().size(), "the first complete run of build writes its archive");
    Run second = launch(unreachable, "build", "-f", manifests.toString());
    assertEquals(0, second.exit(), second.output());
    assertEquals(first.output(), second.output(), "the same output with the archive as without");
    assertTrue(second.output().contains("name: settings"), second.output());
  }

  private record Run(int exit, String output) {}

  /**
   * Runs bin/capstan with its own cache and KUBECONFIG (from which the client also reads its retry
   * limit).
   */
  private Run launch(Path kubeconfig, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(RepoRoot.find().resolve("bin/capstan").toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("XDG_CACHE_HOME", cache.toString());
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    builder.environment().put("KUBERNETES_REQUEST_RETRY_BACKOFFLIMIT", "0"); // refused at once
    builder
        .environment()
        .put("CAPSTAN_JAR", RepoRoot.find().resolve("cli/target/capstan.jar").toString());
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "capstan did not exit");
    return new Run(process.exitValue(), output);
  }

  private List<Path> archives() throws IOException {
    Path dir = cache.resolve("capstan/cds");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".jsa")).toList();
    }
  }
}
