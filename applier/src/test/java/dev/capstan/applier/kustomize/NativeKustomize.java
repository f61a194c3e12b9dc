package dev.capstan.applier.kustomize;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The upstream kustomize command line of the pinned version, built natively from the same Go module
 * for the test run (see kustomize-wasm/build), run with Flux's options: no load restrictions,
 * resources in the order the kustomizations list them.
 */
final class NativeKustomize {
  /** What kustomize printed, and whether it succeeded. */
  record Output(boolean succeeded, String stdout, String stderr) {}

  private final Path binary;

  private NativeKustomize(Path binary) {
    this.binary = binary;
  }

  static NativeKustomize fromBuild() {
    String path = System.getProperty("capstan.kustomize.native");
    if (path == null || !Files.isExecutable(Path.of(path))) {
      throw new IllegalStateException(
          "the native kustomize is not built (" + path + "): run the tests with Maven");
    }
    return new NativeKustomize(Path.of(path));
  }

  Output build(Path dir) {
    try {
      Process process =
          new ProcessBuilder(
                  binary.toString(),
                  "build",
                  "--load-restrictor",
                  "LoadRestrictionsNone",
                  "--reorder",
                  "none",
                  dir.toString())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
      byte[] out = process.getInputStream().readAllBytes();
      byte[] err = process.getErrorStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("native kustomize did not finish building " + dir);
      }
      return new Output(
          process.exitValue() == 0,
          new String(out, StandardCharsets.UTF_8),
          new String(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
