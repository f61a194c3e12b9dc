package dev.capstan.health.kstatus;

import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;

/** apps/DaemonSet: needs generation and observedGeneration, then every node counter at desired. */
final class DaemonSetRule {
  private DaemonSetRule() {}

  static ResourceStatus evaluate(ObjectView d) {
    if (!d.has("metadata", "generation")) {
      return ResourceStatus.inProgress("NoGeneration", "DaemonSet metadata.generation not found");
    }
    if (!d.has("status", "observedGeneration")) {
      return ResourceStatus.inProgress(
          "NoObservedGeneration", "DaemonSet status.observedGeneration not found");
    }
    Long desired = d.integerOrNull("status", "desiredNumberScheduled");
    if (desired == null) {
      return ResourceStatus.inProgress("NoDesiredNumber", "Missing .status.desiredNumberScheduled");
    }
    ResourceStatus scheduling =
        ReplicaCount.first(
            ReplicaCount.of(d, "Current", "currentNumberScheduled").shortOf(desired),
            ReplicaCount.of(d, "Updated", "updatedNumberScheduled").shortOf(desired),
            ReplicaCount.of(d, "Available", "numberAvailable").shortOf(desired),
            ReplicaCount.of(d, "Ready", "numberReady").shortOf(desired));
    if (scheduling != null) {
      return scheduling;
    }
    return ResourceStatus.current("All replicas scheduled as expected. Replicas: " + desired);
  }
}
