package dev.capstan.applier.build;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The file names kustomize recognises as a directory's kustomization. */
final class KustomizationFiles {
  private static final List<String> NAMES =
      List.of("kustomization.yaml", "kustomization.yml", "Kustomization");

  private KustomizationFiles() {}

  static Optional<Path> find(Path directory, String display) {
    List<Path> found =
        NAMES.stream().map(directory::resolve).filter(Files::isRegularFile).toList();
    if (found.size() > 1) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_KUSTOMIZATION, Origin.of(display),
          "found more than one kustomization file: " + found.stream().map(p -> p.getFileName().toString()).toList());
    }
    return found.stream().findFirst();
  }
}
