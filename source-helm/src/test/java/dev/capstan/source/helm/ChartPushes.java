package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.testing.OciRegistry;
import dev.capstan.testing.RepoRoot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Charts packed by the reference {@code helm} (built by {@code kustomize-worker/build helm}) and
 * pushed to a test registry by {@code helm push} or by ORAS, as the OCI tests push.
 */
public final class ChartPushes {
  private final OciRegistry registry;
  private final Path work;
  private final List<String> orasAuth;

  public ChartPushes(OciRegistry registry, Path work, List<String> orasAuth) {
    this.registry = registry;
    this.work = work;
    this.orasAuth = orasAuth;
  }

  static Path helm() throws Exception {
    Path build = RepoRoot.find().resolve("kustomize-worker/build");
    return Path.of(run(RepoRoot.find(), Map.of(), build.toString(), "helm").strip());
  }

  /** A chart directory with a ConfigMap template, and {@code padding} bytes of noise in it. */
  public Path chart(String name, String version, int padding) throws Exception {
    Path dir = Files.createTempDirectory(work, "src").resolve(name);
    Files.createDirectories(dir.resolve("templates"));
    Files.writeString(
        dir.resolve("Chart.yaml"),
        "apiVersion: v2\nname: " + name + "\nversion: " + version + "\n");
    Files.writeString(dir.resolve("values.yaml"), "greeting: hello\n");
    Files.writeString(
        dir.resolve("templates/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n"
            + "data:\n  greeting: {{ .Values.greeting }}\n");
    if (padding > 0) {
      byte[] noise = new byte[padding];
      new Random(7).nextBytes(noise);
      Files.write(dir.resolve("noise.bin"), noise);
    }
    return dir;
  }

  /** {@code helm package} of a chart directory: the .tgz a chart registry holds. */
  public Path pack(Path chart) throws Exception {
    Path out = Files.createTempDirectory(work, "packed");
    run(work, helmEnv(), helm().toString(), "package", chart.toString(), "-d", out.toString());
    try (var files = Files.list(out)) {
      return files.findFirst().orElseThrow();
    }
  }

  /** {@code helm push} to {@code oci://<host>/<repository>} over plain http. */
  public void helmPush(Path tgz, String repository) throws Exception {
    run(
        work,
        helmEnv(),
        helm().toString(),
        "push",
        tgz.toString(),
        "oci://" + registry.host() + "/" + repository,
        "--plain-http");
  }

  /** ORAS push of {@code layer} as the one layer of a manifest with the given media types. */
  public void orasPush(String reference, Path layer, String configType, String layerType)
      throws Exception {
    Path dir = layer.getParent();
    Files.writeString(dir.resolve("config.json"), "{}");
    List<String> command = new ArrayList<>(List.of(OciRegistry.tool("oras").toString(), "push"));
    command.addAll(orasAuth);
    command.addAll(
        List.of(
            "--config",
            "config.json:" + configType,
            registry.host() + "/" + reference,
            layer.getFileName() + ":" + layerType));
    run(dir, registry.orasEnvironment(), command.toArray(String[]::new));
  }

  private Map<String, String> helmEnv() {
    return Map.of(
        "HELM_CONFIG_HOME", work.resolve("helm/config").toString(),
        "HELM_CACHE_HOME", work.resolve("helm/cache").toString(),
        "HELM_DATA_HOME", work.resolve("helm/data").toString(),
        "HOME", work.toString());
  }

  static String run(Path dir, Map<String, String> env, String... command) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(false);
    builder.environment().putAll(env);
    builder.redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr.log").toFile()));
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(
        0,
        process.waitFor(),
        String.join(" ", command) + ":\n" + output + Files.readString(dir.resolve("stderr.log")));
    return output;
  }
}
