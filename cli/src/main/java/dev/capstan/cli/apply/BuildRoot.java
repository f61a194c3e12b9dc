package dev.capstan.cli.apply;

import dev.capstan.applier.kustomize.BuildError;
import dev.capstan.applier.kustomize.BuildErrorKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * The directory a command-line build may read from: no file outside it is read, so a
 * kustomization's {@code ../base} builds only when the base lies inside it. Set with {@code
 * --root}; by default the enclosing Git work tree, else the {@code -f} directory itself.
 *
 * @param path the absolute, normalized root
 * @param origin how it was chosen, for messages
 */
public record BuildRoot(Path path, String origin) {

  /** The failures that a root too narrow causes: a resource or base that is not there. */
  private static final Set<BuildErrorKind> ABOUT_FILES =
      Set.of(
          BuildErrorKind.PATH_NOT_FOUND,
          BuildErrorKind.INVALID_KUSTOMIZATION,
          BuildErrorKind.KUSTOMIZE);

  /** The root for building {@code directory}: {@code given} when not null, else the default. */
  public static BuildRoot of(Path directory, Path given) {
    if (given != null) {
      return new BuildRoot(given.toAbsolutePath().normalize(), "set with --root");
    }
    Path dir = directory.toAbsolutePath().normalize();
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git"))) {
        return new BuildRoot(p, "the enclosing Git work tree");
      }
    }
    return new BuildRoot(dir, "the -f directory, as no Git work tree encloses it");
  }

  /** {@code directory} relative to the root ("." for the root itself). */
  String relative(Path directory) throws ManifestSource.ManifestException {
    Path dir = directory.toAbsolutePath().normalize();
    if (!dir.startsWith(path)) {
      throw new ManifestSource.ManifestException(
          directory
              + " is not inside the root "
              + path
              + " ("
              + origin
              + "); choose another with --root DIR");
    }
    String relative = path.relativize(dir).toString();
    return relative.isEmpty() ? "." : relative;
  }

  /**
   * The failure's message; when a file may be missing for lying outside the root, says which root.
   */
  String describe(BuildError error) {
    if (!ABOUT_FILES.contains(error.kind())) {
      return error.message();
    }
    return error.message()
        + " (files are read only under the root "
        + path
        + ", "
        + origin
        + "; choose another with --root DIR)";
  }
}
