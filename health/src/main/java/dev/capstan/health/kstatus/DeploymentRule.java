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
    ReplicaCount replicas = ReplicaCount.of(d, "Replicas", "replicas");
    ReplicaCount updated = ReplicaCount.of(d, "Updated", "updatedReplicas");
    ResourceStatus rollingOut =
        ReplicaCount.first(
            replicas.shortOf(spec),
            updated.shortOf(spec),
            ReplicaCount.extraPods(replicas.value(), spec),
            ReplicaCount.of(d, "Available", "availableReplicas").shortOf(updated.value()),
            ReplicaCount.of(d, "Ready", "readyReplicas").shortOf(spec));
    if (rollingOut != null) {
      return rollingOut;
    }
    if (!progressing) {
      return ResourceStatus.inProgress("ReplicaSetNotAvailable", "ReplicaSet not Available");
    }
    if (!available) {
      return ResourceStatus.inProgress("DeploymentNotAvailable", "Deployment not Available");
    }
    return ResourceStatus.current("Deployment is available. Replicas: " + replicas.value());
  }
}
