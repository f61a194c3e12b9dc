package dev.capstan.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Runs a script to completion, echoing its output to stderr so a long build shows progress. */
class ProcessRunner {

  record Result(int exitCode, List<String> lines) {
    String lastLine() {
      return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    String tail(int count) {
      return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }
  }

  Result run(Path script) throws IOException {
    return run(script, Map.of());
  }

  /** Runs {@code script} with {@code env} added to this process's environment. */
  Result run(Path script, Map<String, String> env) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(script.toString()).redirectErrorStream(true);
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    StringBuilder all = new StringBuilder();
    try (var reader = process.inputReader(StandardCharsets.UTF_8)) {
      String line;
      while ((line = reader.readLine()) != null) {
        System.err.println(line);
        all.append(line).append('\n');
      }
      int exit = process.waitFor();
      return new Result(exit, Arrays.asList(all.toString().split("\n")));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted while running " + script, e);
    }
  }
}
