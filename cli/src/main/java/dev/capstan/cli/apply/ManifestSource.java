package dev.capstan.cli.apply;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.util.List;

/** Turns a directory into the ordered objects to apply. */
@FunctionalInterface
public interface ManifestSource {

  /**
   * Loads {@code dir}, reading no file outside {@code root}.
   *
   * @throws ManifestException when a document cannot be read; the message names file and line
   */
  List<GenericKubernetesResource> load(Path dir, BuildRoot root) throws ManifestException;

  /** A directory or document that cannot be turned into objects. */
  final class ManifestException extends Exception {
    public ManifestException(String message) {
      super(message);
    }
  }
}
