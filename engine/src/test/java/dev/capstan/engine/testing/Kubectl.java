package dev.capstan.engine.testing;

import dev.capstan.testing.ClusterAccess;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The real kubectl: the one built for the local control plane when present, else one on the PATH.
 */
public final class Kubectl {
  private Kubectl() {}

  public record Result(int exitCode, String output) {}

  public static Optional<Path> find() {
    return Stream.concat(
            Stream.of(Path.of(System.getProperty("user.home"), ".cache/capstan/bin/kubectl")),
            Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(d -> !d.isEmpty())
                .map(d -> Path.of(d, "kubectl")))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /** Runs kubectl against the cluster of {@code access}, or with no cluster when it is null. */
  public static Result run(Path kubectl, ClusterAccess access, Path workDir, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(kubectl.toString()));
    if (access != null) {
      command.addAll(List.of("--kubeconfig", access.kubeconfig().toString()));
    }
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
    process.getOutputStream().close();
    byte[] out = process.getInputStream().readAllBytes();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
    }
    return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8));
  }
}
