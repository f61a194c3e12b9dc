package dev.capstan.applier.build;

import java.util.Objects;

/**
 * Why a build failed and where: the file (relative to the artifact root) and the 1-based line,
 * or 0 when the problem has no line of its own (for example a missing directory).
 */
public record BuildError(BuildErrorKind kind, String file, int line, String message) {

  public BuildError {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
    file = file == null ? "" : file;
  }

  /** One line for a person: {@code file:line: message}. */
  public String describe() {
    if (file.isEmpty()) {
      return message;
    }
    return line > 0 ? file + ":" + line + ": " + message : file + ": " + message;
  }
}
