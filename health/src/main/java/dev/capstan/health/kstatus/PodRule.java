package dev.capstan.health.kstatus;

import dev.capstan.health.status.BadObjectException;
import dev.capstan.health.status.Condition;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Pod: decided by the phase; a failed Pod is finished (Current), a crash-looping one Failed. */
final class PodRule implements KindRule {
  /** How long an unschedulable Pod may wait for the scheduler before it counts as Failed. */
  static final Duration SCHEDULING_GRACE = Duration.ofSeconds(15);

  private final Clock clock;

  PodRule(Clock clock) {
    this.clock = clock;
  }

  @Override
  public ResourceStatus evaluate(ObjectView pod) {
    String phase = pod.string("", "status", "phase");
    switch (phase) {
      case "Succeeded":
        return ResourceStatus.current("Pod has completed successfully");
      case "Failed":
        return ResourceStatus.current("Pod has completed, but not successfully");
      case "Running":
        return running(pod);
      case "Pending":
        return pending(pod);
      case "":
        return ResourceStatus.inProgress("PodNotObserved", "Pod phase not available");
      default:
        throw new BadObjectException("status.phase: unknown Pod phase \"" + phase + "\"");
    }
  }

  private static ResourceStatus running(ObjectView pod) {
    for (Condition c : pod.conditions()) {
      if (c.is("Ready", "True")) {
        return ResourceStatus.current("Pod is Ready");
      }
    }
    List<String> crashLooping = crashLoopingContainers(pod);
    if (!crashLooping.isEmpty()) {
      return ResourceStatus.failed(
          "ContainerCrashLooping",
          "Containers in CrashLoop state: " + String.join(",", crashLooping));
    }
    return ResourceStatus.inProgress("PodRunningNotReady", "Pod is running but is not Ready");
  }

  private static List<String> crashLoopingContainers(ObjectView pod) {
    List<String> names = new ArrayList<>();
    for (Object entry : pod.list("status", "containerStatuses")) {
      if (entry instanceof Map<?, ?> container
          && container.get("state") instanceof Map<?, ?> state
          && state.get("waiting") instanceof Map<?, ?> waiting
          && "CrashLoopBackOff".equals(waiting.get("reason"))) {
        names.add(String.valueOf(container.get("name")));
      }
    }
    return names;
  }

  private ResourceStatus pending(ObjectView pod) {
    for (Condition c : pod.conditions()) {
      if (c.is("PodScheduled", "False") && c.reason().equals("Unschedulable")) {
        String detail = c.message().isEmpty() ? "" : ": " + c.message();
        if (createdWithinGrace(pod)) {
          return ResourceStatus.inProgress(
              "PodNotScheduled", "Pod has not been scheduled" + detail);
        }
        return ResourceStatus.failed("PodUnschedulable", "Pod could not be scheduled" + detail);
      }
    }
    return ResourceStatus.inProgress("PodPending", "Pod is in the Pending phase");
  }

  private boolean createdWithinGrace(ObjectView pod) {
    String created = pod.string("", "metadata", "creationTimestamp");
    if (created.isEmpty()) {
      return false;
    }
    try {
      Instant createdAt = Instant.parse(created);
      return createdAt.isAfter(clock.instant().minus(SCHEDULING_GRACE));
    } catch (DateTimeParseException e) {
      throw new BadObjectException(
          "metadata.creationTimestamp: not an RFC 3339 time: \"" + created + "\"");
    }
  }
}
