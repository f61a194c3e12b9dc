package dev.capstan.applier.build;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Objects;

/** The outcome of one build: the ordered objects to apply, or the first error found. */
public sealed interface BuildResult {

  /** The objects in apply order: Namespaces and CRDs first, then as kustomize orders them. */
  record Built(List<GenericKubernetesResource> objects) implements BuildResult {
    public Built {
      objects = List.copyOf(objects);
    }
  }

  /** The build stopped at this error; nothing was produced. */
  record Failed(BuildError error) implements BuildResult {
    public Failed {
      Objects.requireNonNull(error, "error");
    }
  }
}
