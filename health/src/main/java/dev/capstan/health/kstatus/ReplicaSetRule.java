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
    long labelled = r.integer(0, "status", "fullyLabeledReplicas");
    long available = r.integer(0, "status", "availableReplicas");
    long ready = r.integer(0, "status", "readyReplicas");
    long replicas = r.integer(0, "status", "replicas");
    if (labelled < spec) {
      return ResourceStatus.inProgress("LessLabelled", "Labelled: " + labelled + "/" + spec);
    }
    if (available < spec) {
      return ResourceStatus.inProgress("LessAvailable", "Available: " + available + "/" + spec);
    }
    if (ready < spec) {
      return ResourceStatus.inProgress("LessReady", "Ready: " + ready + "/" + spec);
    }
    if (replicas > spec) {
      return ResourceStatus.inProgress("ExtraPods", "Pending termination: " + (replicas - spec));
    }
    return ResourceStatus.current(kind + " is available. Replicas: " + replicas);
  }

  private static String detail(Condition c) {
    return c.message().isEmpty() ? "" : ": " + c.message();
  }
}
