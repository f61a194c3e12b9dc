package dev.capstan.health.kstatus;

import dev.capstan.health.status.Condition;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;

/**
 * apps/ReplicaSet (kstatus) and core ReplicationController (the same counters; the application
 * readiness proposal asks for available replicas and no ReplicaFailure).
 */
final class ReplicaSetRule {
  private ReplicaSetRule() {}

  static ResourceStatus replicaSet(ObjectView r) {
    return evaluate(r, "ReplicaSet");
  }

  static ResourceStatus replicationController(ObjectView r) {
    return evaluate(r, "ReplicationController");
  }

  private static ResourceStatus evaluate(ObjectView r, String kind) {
    for (Condition c : r.conditions()) {
      if (c.is("ReplicaFailure", "True")) {
        return ResourceStatus.inProgress(
            "ReplicaFailure", "Replica Failure condition. Check Pods" + detail(c));
      }
    }
    long spec = r.integer(1, "spec", "replicas");
    long replicas = r.integer(0, "status", "replicas");
    ResourceStatus scaling =
        ReplicaCount.first(
            ReplicaCount.of(r, "Labelled", "fullyLabeledReplicas").shortOf(spec),
            ReplicaCount.of(r, "Available", "availableReplicas").shortOf(spec),
            ReplicaCount.of(r, "Ready", "readyReplicas").shortOf(spec),
            ReplicaCount.extraPods(replicas, spec));
    if (scaling != null) {
      return scaling;
    }
    return ResourceStatus.current(kind + " is available. Replicas: " + replicas);
  }

  private static String detail(Condition c) {
    return c.message().isEmpty() ? "" : ": " + c.message();
  }
}
