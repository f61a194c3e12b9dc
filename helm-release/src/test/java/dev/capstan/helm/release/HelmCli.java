package dev.capstan.helm.release;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.testing.RepoRoot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The real {@code helm} of the version the chart worker pins, built from Helm's own module by
 * {@code kustomize-worker/build helm}, run against the test cluster with its own home.
 */
final class HelmCli {
  private final Path binary;
  private final Path home;
  private final Path kubeconfig;

  private HelmCli(Path binary, Path home, Path kubeconfig) {
    this.binary = binary;
    this.home = home;
    this.kubeconfig = kubeconfig;
  }

  static HelmCli build(Path home, Path kubeconfig) throws Exception {
    Path build = RepoRoot.find().resolve("kustomize-worker/build");
    String path = run(RepoRoot.find(), Map.of(), List.of(build.toString(), "helm")).strip();
    return new HelmCli(Path.of(path), home, kubeconfig);
  }

  /** {@code helm ARGS...}'s standard output; a failure fails the test with its error output. */
  String run(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(binary.toString()));
    command.addAll(List.of(args));
    return run(
        home,
        Map.of(
            "HOME", home.toString(),
            "HELM_CONFIG_HOME", home.resolve("config").toString(),
            "HELM_CACHE_HOME", home.resolve("cache").toString(),
            "HELM_DATA_HOME", home.resolve("data").toString(),
            "KUBECONFIG", kubeconfig.toString()),
        command);
  }

  /** {@code helm ARGS... -o json}, read. */
  JsonNode json(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("-o", "json"));
    return new ObjectMapper().readTree(run(all.toArray(String[]::new)));
  }

  /** A chart directory {@code demo} 1.2.3 (appVersion 4.5) with a ConfigMap of a greeting. */
  Path chart() throws Exception {
    Path dir = Files.createTempDirectory(home, "chart").resolve("demo");
    Files.createDirectories(dir.resolve("templates"));
    Files.writeString(
        dir.resolve("Chart.yaml"),
        "apiVersion: v2\nname: demo\nversion: 1.2.3\nappVersion: \"4.5\"\n");
    Files.writeString(dir.resolve("values.yaml"), "greeting: hello\n");
    Files.writeString(dir.resolve("templates/cm.yaml"), CONFIG_MAP_TEMPLATE);
    return dir;
  }

  static final String CONFIG_MAP_TEMPLATE =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-cm\n"
          + "data:\n  greeting: {{ .Values.greeting | quote }}\n";

  private static String run(Path dir, Map<String, String> env, List<String> command)
      throws Exception {
    Path errors = Files.createTempFile("helm", ".err");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().putAll(env);
    builder.redirectError(errors.toFile());
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = process.waitFor();
    assertEquals(0, code, String.join(" ", command) + ":\n" + output + Files.readString(errors));
    Files.deleteIfExists(errors);
    return output;
  }
}
