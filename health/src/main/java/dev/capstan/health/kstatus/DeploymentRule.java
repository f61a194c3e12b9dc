package dev.capstan.health.kstatus;

import dev.capstan.health.status.Condition;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;

/** apps/Deployment: kstatus rollout rule (replica counters, Progressing and Available). */
final class DeploymentRule {
  private DeploymentRule() {}

  static ResourceStatus evaluate(ObjectView d) {
    // Without a deadline the controller never sets Progressing, so there is nothing to wait for.
    boolean progressing = !d.has("spec", "progressDeadlineSeconds");
    boolean available = false;
    for (Condition c : d.conditions()) {
      if (c.type().equals("Progressing") && c.reason().equals("ProgressDeadlineExceeded")) {
        return ResourceStatus.failed("ProgressDeadlineExceeded", "Progress deadline exceeded");
      }
      if (c.is("Progressing", "True") && c.reason().equals("NewReplicaSetAvailable")) {
        progressing = true;
      }
      if (c.is("Available", "True")) {
        available = true;
      }
    }
    long spec = d.integer(1, "spec", "replicas");
    long replicas = d.integer(0, "status", "replicas");
    long updated = d.integer(0, "status", "updatedReplicas");
    long ready = d.integer(0, "status", "readyReplicas");
    long availableReplicas = d.integer(0, "status", "availableReplicas");
    if (replicas < spec) {
      return ResourceStatus.inProgress("LessReplicas", "Replicas: " + replicas + "/" + spec);
    }
    if (updated < spec) {
      return ResourceStatus.inProgress("LessUpdated", "Updated: " + updated + "/" + spec);
    }
    if (replicas > spec) {
      return ResourceStatus.inProgress("ExtraPods", "Pending termination: " + (replicas - spec));
    }
    if (updated > availableReplicas) {
      return ResourceStatus.inProgress(
          "LessAvailable", "Available: " + availableReplicas + "/" + updated);
    }
    if (ready < spec) {
      return ResourceStatus.inProgress("LessReady", "Ready: " + ready + "/" + spec);
    }
    if (!progressing) {
      return ResourceStatus.inProgress("ReplicaSetNotAvailable", "ReplicaSet not Available");
    }
    if (!available) {
      return ResourceStatus.inProgress("DeploymentNotAvailable", "Deployment not Available");
    }
    return ResourceStatus.current("Deployment is available. Replicas: " + replicas);
  }
}
