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
    long current = d.integer(0, "status", "currentNumberScheduled");
    long updated = d.integer(0, "status", "updatedNumberScheduled");
    long available = d.integer(0, "status", "numberAvailable");
    long ready = d.integer(0, "status", "numberReady");
    if (current < desired) {
      return ResourceStatus.inProgress("LessCurrent", "Current: " + current + "/" + desired);
    }
    if (updated < desired) {
      return ResourceStatus.inProgress("LessUpdated", "Updated: " + updated + "/" + desired);
    }
    if (available < desired) {
      return ResourceStatus.inProgress("LessAvailable", "Available: " + available + "/" + desired);
    }
    if (ready < desired) {
      return ResourceStatus.inProgress("LessReady", "Ready: " + ready + "/" + desired);
    }
    return ResourceStatus.current("All replicas scheduled as expected. Replicas: " + desired);
  }
}
