package dev.capstan.health;

import dev.capstan.health.status.ResourceStatus;
import dev.capstan.kube.ObjectRef;
import java.util.Objects;

/** The health of one identified object. */
public record ResourceHealth(ObjectRef ref, ResourceStatus status) {
  public ResourceHealth {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(status, "status");
  }
}
