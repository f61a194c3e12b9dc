package dev.capstan.cli.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The limits the engine's Deployment (deploy/install/engine/deployment.yaml) gives it, read from
 * the manifest: the JVM options a container of that memory limit would run with (the heap as
 * MaxRAMPercentage of the limit) and the build flags. A test run with them holds what the install
 * promises.
 */
record DeploymentLimits(long memoryLimitBytes, int heapPercent, List<String> buildArgs) {
  private static final Pattern MAX_RAM = Pattern.compile("-XX:MaxRAMPercentage=(\\d+)");

  static DeploymentLimits read() throws IOException {
    JsonNode container =
        new YAMLMapper()
            .readTree(RepoRoot.find().resolve("deploy/install/engine/deployment.yaml").toFile())
            .at("/spec/template/spec/containers/0");
    long memory =
        Quantity.getAmountInBytes(new Quantity(container.at("/resources/limits/memory").asText()))
            .longValueExact();
    String options = "";
    for (JsonNode env : container.path("env")) {
      if ("JAVA_TOOL_OPTIONS".equals(env.path("name").asText())) {
        options = env.path("value").asText();
      }
    }
    Matcher percent = MAX_RAM.matcher(options);
    if (!percent.find()) {
      throw new IllegalStateException("the Deployment sets no -XX:MaxRAMPercentage");
    }
    List<String> builds = new ArrayList<>();
    for (JsonNode arg : container.path("args")) {
      if (arg.asText().startsWith("--build-")) {
        builds.add(arg.asText());
      }
    }
    return new DeploymentLimits(memory, Integer.parseInt(percent.group(1)), List.copyOf(builds));
  }

  long heapBytes() {
    return memoryLimitBytes / 100 * heapPercent;
  }

  /** The JVM options of the container, with its heap given directly (no container here). */
  List<String> jvmArgs() {
    return List.of("-Xmx" + (heapBytes() >> 20) + "m", "-XX:+ExitOnOutOfMemoryError");
  }
}
