package dev.capstan.cli.migrate;

import dev.capstan.testing.RepoRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code capstan migrate flux} run from the real jar as a process of its own, as a user runs it, so
 * that a test can kill it (SIGKILL: no shutdown hook, no step finished) at a moment it watches for.
 */
final class MigrationProcess {
  private final Process process;
  private final Path log;

  private MigrationProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts {@code capstan ARGS --kubeconfig KUBECONFIG}, its output to {@code log}. */
  static MigrationProcess start(Path kubeconfig, Path log, String... args) throws IOException {
    Path jar = RepoRoot.find().resolve("cli/target/capstan.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: run mvn package first");
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-jar",
                jar.toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("--kubeconfig", kubeconfig.toString()));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().remove("KUBECONFIG");
    return new MigrationProcess(builder.start(), log);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL, and wait until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the migration outlived a SIGKILL by 30 s");
    }
  }

  /** What it printed so far, for a failure's message. */
  String output() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }
}
