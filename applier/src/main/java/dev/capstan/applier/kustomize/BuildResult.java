package dev.capstan.applier.kustomize;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Objects;

/** The outcome of one build. */
public sealed interface BuildResult {

  /**
   * The objects, in the order the kustomizations list them (Flux does not reorder them), and the
   * digest of the build's answer ({@code sha256:…}): the same inputs give the same digest, so it
   * names the set of objects built. The objects hold {@code room} of the builds' shared heap until
   * the result is closed: close it once they are applied (or dropped).
   */
  record Built(List<GenericKubernetesResource> objects, String digest, HeldRoom room)
      implements BuildResult, AutoCloseable {
    public Built {
      objects = List.copyOf(objects);
      Objects.requireNonNull(digest, "digest");
      Objects.requireNonNull(room, "room");
    }

    /** Objects that hold no room. */
    public Built(List<GenericKubernetesResource> objects, String digest) {
      this(objects, digest, HeldRoom.NONE);
    }

    /** Gives back the room the objects held; they should not be used after. */
    @Override
    public void close() {
      room.close();
    }
  }

  /** The build as kustomize prints it: multi-document YAML. */
  record Printed(String yaml) implements BuildResult {
    public Printed {
      Objects.requireNonNull(yaml, "yaml");
    }
  }

  /** The build stopped at this error; nothing was produced. */
  record Failed(BuildError error) implements BuildResult {
    public Failed {
      Objects.requireNonNull(error, "error");
    }
  }
}
