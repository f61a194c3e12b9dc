package dev.capstan.applier.build;

import java.util.LinkedHashMap;
import java.util.Map;

/** An env file of a generator: {@code KEY=VALUE} lines; blank lines and {@code #} comments skipped. */
final class EnvFile {
  private EnvFile() {}

  static Map<String, String> parse(String text, String file) {
    Map<String, String> pairs = new LinkedHashMap<>();
    String[] lines = text.startsWith("\uFEFF") ? text.substring(1).split("\n", -1) : text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        // A bare KEY would mean "take it from the environment", which a build must not read.
        throw new BuildFailure(
            BuildErrorKind.INVALID_GENERATOR, new Origin(file, i + 1),
            "env line must be KEY=VALUE, found '" + trimmed.split("=")[0] + "'");
      }
      pairs.put(line.substring(0, eq).stripLeading(), line.substring(eq + 1));
    }
    return pairs;
  }
}
