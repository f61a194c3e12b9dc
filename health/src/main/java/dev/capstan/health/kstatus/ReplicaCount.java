package dev.capstan.health.kstatus;

import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;

/**
 * One replica counter of a workload's status ({@code status.readyReplicas}, say), named as kstatus
 * names it in the reason and message of a workload that waits for it.
 */
record ReplicaCount(String name, long value) {

  /** The counter {@code status.<field>} of {@code object}, zero when absent. */
  static ReplicaCount of(ObjectView object, String name, String field) {
    return new ReplicaCount(name, object.integer(0, "status", field));
  }

  /** InProgress ({@code Less<name>}, {@code <name>: value/wanted}) when below; else null. */
  ResourceStatus shortOf(long wanted) {
    return value < wanted
        ? ResourceStatus.inProgress("Less" + name, name + ": " + value + "/" + wanted)
        : null;
  }

  /**
   * InProgress while more Pods than {@code spec} still run, the old ones terminating; else null.
   */
  static ResourceStatus extraPods(long replicas, long spec) {
    return replicas > spec
        ? ResourceStatus.inProgress("ExtraPods", "Pending termination: " + (replicas - spec))
        : null;
  }

  /** The first of {@code waits} that is not null, in the order the rule checks them; else null. */
  static ResourceStatus first(ResourceStatus... waits) {
    for (ResourceStatus wait : waits) {
      if (wait != null) {
        return wait;
      }
    }
    return null;
  }
}
