package dev.capstan.cli.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The real {@code helm} (kustomize-worker/build helm), with its own home, against a cluster. */
record HelmCommand(Path binary, Path home, Path kubeconfig) {

  static HelmCommand of(Path kubeconfig, Path home) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(RepoRoot.find().resolve("kustomize-worker/build").toString(), "helm")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IllegalStateException("kustomize-worker/build helm failed: " + out);
    }
    List<String> lines = out.strip().lines().toList();
    Files.createDirectories(home);
    return new HelmCommand(Path.of(lines.get(lines.size() - 1).strip()), home, kubeconfig);
  }

  /** {@code helm history RELEASE -n NS}: {@code "<revision> <status>"}, oldest first. */
  List<String> history(String release, String namespace) throws Exception {
    String json = run("history", release, "-n", namespace, "-o", "json");
    List<String> seen = new ArrayList<>();
    for (Object entry : new KubernetesSerialization().unmarshal(json, List.class)) {
      Map<?, ?> revision = (Map<?, ?>) entry;
      seen.add(revision.get("revision") + " " + revision.get("status"));
    }
    return seen;
  }

  private String run(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(binary.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
    builder
        .environment()
        .putAll(
            Map.of(
                "HOME", home.toString(),
                "HELM_CONFIG_HOME", home.resolve("config").toString(),
                "HELM_CACHE_HOME", home.resolve("cache").toString(),
                "HELM_DATA_HOME", home.resolve("data").toString(),
                "KUBECONFIG", kubeconfig.toString()));
    Path errors = Files.createTempFile(home, "helm", ".err");
    builder.redirectError(errors.toFile());
    Process process = builder.start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), String.join(" ", command) + ": " + Files.readString(errors));
    return out;
  }
}
