package dev.capstan.health.kstatus;

import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;

/**
 * apps/StatefulSet: kstatus rollout rule, plus availableReplicas when the controller reports it.
 */
final class StatefulSetRule {
  private StatefulSetRule() {}

  static ResourceStatus evaluate(ObjectView s) {
    if ("OnDelete".equals(s.string("", "spec", "updateStrategy", "type"))) {
      return ResourceStatus.current("StatefulSet is using the OnDelete update strategy");
    }
    long spec = s.integer(1, "spec", "replicas");
    long partition = s.integer(-1, "spec", "updateStrategy", "rollingUpdate", "partition");
    long replicas = s.integer(0, "status", "replicas");
    long current = s.integer(0, "status", "currentReplicas");
    long updated = s.integer(0, "status", "updatedReplicas");
    // Newer than the other counters: where the API server does not report it, it is not waited for.
    Long available = s.integerOrNull("status", "availableReplicas");
    ResourceStatus scaling =
        ReplicaCount.first(
            new ReplicaCount("Replicas", replicas).shortOf(spec),
            ReplicaCount.of(s, "Ready", "readyReplicas").shortOf(spec),
            available == null ? null : new ReplicaCount("Available", available).shortOf(spec),
            ReplicaCount.extraPods(replicas, spec));
    if (scaling != null) {
      return scaling;
    }
    if (partition != -1) {
      if (updated < spec - partition) {
        return ResourceStatus.inProgress(
            "PartitionRollout", "updated: " + updated + "/" + (spec - partition));
      }
      return ResourceStatus.current("Partition rollout complete. updated: " + updated);
    }
    if (current < spec) {
      return ResourceStatus.inProgress("LessCurrent", "current: " + current + "/" + spec);
    }
    String currentRevision = s.string("", "status", "currentRevision");
    String updateRevision = s.string("", "status", "updateRevision");
    if (!currentRevision.equals(updateRevision)) {
      return ResourceStatus.inProgress(
          "RevisionMismatch", "Waiting for updated revision to match current");
    }
    return ResourceStatus.current("All replicas scheduled as expected. Replicas: " + replicas);
  }
}
