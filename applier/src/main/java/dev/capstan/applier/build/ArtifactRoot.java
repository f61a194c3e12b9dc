package dev.capstan.applier.build;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The directory a build may read from. Every path a kustomization names is resolved here, and
 * anything that leads outside (by {@code ..} or through a symbolic link) is refused.
 */
final class ArtifactRoot {
  private final Path root;

  ArtifactRoot(Path root) {
    try {
      this.root = root.toRealPath();
    } catch (IOException e) {
      throw new BuildFailure(
          BuildErrorKind.MISSING_RESOURCE, Origin.of(root.toString()), "artifact root does not exist");
    }
  }

  /** Resolves {@code reference} against {@code base}; {@code origin} is where it was named. */
  Path resolve(Path base, String reference, Origin origin) {
    if (reference.contains("://") || reference.startsWith("git@")) {
      throw new BuildFailure(
          BuildErrorKind.OUTSIDE_ROOT, origin, "remote resource '" + reference + "' is not supported");
    }
    Path candidate = base.resolve(reference).normalize();
    if (!candidate.startsWith(root)) {
      throw new BuildFailure(
          BuildErrorKind.OUTSIDE_ROOT, origin, "'" + reference + "' is outside the artifact root");
    }
    if (!Files.exists(candidate)) {
      throw new BuildFailure(
          BuildErrorKind.MISSING_RESOURCE, origin, "'" + reference + "' does not exist");
    }
    Path real;
    try {
      real = candidate.toRealPath();
    } catch (IOException e) {
      throw new BuildFailure(BuildErrorKind.IO, origin, "cannot resolve '" + reference + "'");
    }
    if (!real.startsWith(root)) {
      throw new BuildFailure(
          BuildErrorKind.OUTSIDE_ROOT, origin,
          "'" + reference + "' links to a file outside the artifact root");
    }
    return real;
  }

  /** The path as shown in errors: relative to the root, with forward slashes. */
  String display(Path path) {
    String relative = root.relativize(path.toAbsolutePath().normalize()).toString();
    return relative.isEmpty() ? "." : relative.replace('\\', '/');
  }

  String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BuildFailure(BuildErrorKind.IO, Origin.of(display(file)), "cannot read file");
    }
  }

  byte[] readBytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new BuildFailure(BuildErrorKind.IO, Origin.of(display(file)), "cannot read file");
    }
  }

  Path path() {
    return root;
  }
}
