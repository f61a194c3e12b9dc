package dev.capstan.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.ClusterAccess.ClusterSource;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code deploy/demo} end to end, as the README tells a user to: the demo must end with the
 * pushed commit applied to the app Kustomization; then {@code deploy/demo --stop} must stop its
 * processes and remove its objects. The control plane is shared with the other tests, so both run
 * with --keep-cluster.
 */
@ExtendWith(KubernetesCluster.class)
class DemoIT {
  private static final Pattern PUSHED = Pattern.compile("pushed (main@sha1:[0-9a-f]{40})");

  @TempDir Path state;

  @Test
  void theDemoAppliesTheCommitItPushesAndStopsCleanly(KubernetesClient client, ClusterAccess access)
      throws Exception {
    assumeTrue(
        access.source() == ClusterSource.LOCAL_CONTROL_PLANE,
        "the demo starts the local control plane; these tests were given another cluster");
    Path root = RepoRoot.find();
    Run demo = run(root, List.of("deploy/demo", "--keep-cluster"), 15);
    try {
      assertEquals(0, demo.exitCode(), demo::tail);
      assertTrue(demo.output().contains("==> The demo is running"), demo::tail);
      Matcher pushed = PUSHED.matcher(demo.output());
      assertTrue(pushed.find(), demo::tail);
      Kustomization app =
          client.resources(Kustomization.class).inNamespace("capstan-demo").withName("app").get();
      assertEquals(pushed.group(1), app.getStatus().lastAppliedRevision(), demo::tail);
      assertEquals(
          3,
          client
              .apps()
              .deployments()
              .inNamespace("demo")
              .withName("web")
              .get()
              .getSpec()
              .getReplicas());
      assertTrue(demo.output().contains("└── namespace demo"), demo::tail);
      assertTrue(
          Files.exists(state.resolve("engine.pid")), "the engine keeps running after the demo");
    } finally {
      Run stop = run(root, List.of("deploy/demo", "--stop", "--keep-cluster"), 3);
      assertEquals(0, stop.exitCode(), stop::tail);
    }
    assertFalse(Files.exists(state.resolve("engine.pid")));
    assertFalse(Files.exists(state.resolve("git-daemon.pid")));
    assertNull(
        client.resources(Kustomization.class).inNamespace("capstan-demo").withName("app").get());
  }

  private record Run(int exitCode, String output) {
    String tail() {
      List<String> lines = output.lines().toList();
      return "exit "
          + exitCode
          + ", last lines of the demo's output:\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
  }

  private Run run(Path root, List<String> command, int minutes)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile(state, "run", ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("CAPSTAN_DEMO_DIR", state.toString());
    Process process = builder.start();
    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
      // SIGTERM: the script's trap stops what it started.
      process.destroy();
      process.waitFor(1, TimeUnit.MINUTES);
      return new Run(-1, Files.readString(log) + "\n(timed out after " + minutes + " minutes)");
    }
    return new Run(process.exitValue(), Files.readString(log));
  }
}
