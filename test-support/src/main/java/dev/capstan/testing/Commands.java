package dev.capstan.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a short command-line program of a test to completion. */
final class Commands {

  private Commands() {}

  /**
   * Runs {@code command} in {@code dir} with {@code env} added to this process's environment.
   *
   * @return its standard output
   * @throws IOException naming the command and its standard error when it fails
   */
  static String run(Path dir, List<String> command, Map<String, String> env) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    // Read beside standard output, so that neither pipe fills up and stalls the program.
    CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process));
    try {
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + " did not finish in 120 s");
      }
      if (process.exitValue() != 0) {
        throw new IOException(
            String.join(" ", command)
                + " failed: "
                + new String(err.join(), StandardCharsets.UTF_8).strip());
      }
      return new String(out, StandardCharsets.UTF_8);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + String.join(" ", command), e);
    }
  }

  private static byte[] readAll(Process process) {
    try {
      return process.getErrorStream().readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }
}
