package dev.capstan.health.status;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Step (a) of the generic layer: the conditions custom resources commonly carry, read by type and
 * reason. Types are compared after dropping a {@code domain/} prefix, lower-casing and dropping
 * dashes and underscores, so {@code platform.confluent.io/resources-ready} is a readiness
 * condition.
 *
 * <ul>
 *   <li>A readiness type (Ready, Available, Healthy, Synced, Succeeded, Complete, …, or one ending
 *       in ready/available/healthy/synced): True is healthy; False with a failure reason (…Failed,
 *       …Error, Invalid, CrashLoopBackOff, …) is a failure; False with any other reason, or
 *       Unknown, is progress. A Complete/Succeeded True whose reason names a failure ({@code
 *       JobFailed}) is a failure.
 *   <li>A failure type (Degraded, Failed, Error, ReplicaFailure, ResolutionFailed,
 *       CatalogSourcesUnhealthy, Terminal, …) that is True is a failure; NotReady/PartiallyReady
 *       True is progress.
 *   <li>A progress type (Progressing, Updating, Upgrading, Rolling, Scaling, Provisioning, …) that
 *       is True is progress, except Progressing with a reason that says the rollout is done
 *       (NewReplicaSetAvailable, …Complete, …Succeeded); False with a failure reason
 *       (ProgressDeadlineExceeded) is a failure.
 * </ul>
 *
 * A condition that would be progress but has no reason and a message saying something failed or
 * errored is a failure. A reason saying the controller stopped trying (Terminal, BackoffLimit…,
 * RetriesExhausted, …) is a failure whatever the type. A readiness condition False whose message
 * says the controller waits for something, or while another condition says it is retrying, is
 * progress. A failure anywhere wins over progress, and progress over health; the first condition of
 * the winning kind gives the reason and message.
 */
final class ConditionSignals {
  private static final Set<String> READINESS =
      Set.of(
          "ready",
          "available",
          "healthy",
          "synced",
          "succeeded",
          "complete",
          "completed",
          "reconciled",
          "established",
          "accepted",
          "programmed",
          "installed",
          "bound",
          "valid",
          "resolvedrefs",
          "deployed",
          "provisioned",
          "initialized");

  private static final Set<String> COMPLETION = Set.of("complete", "completed", "succeeded");

  private static final Set<String> FAILURE =
      Set.of("degraded", "failed", "failure", "error", "errored", "reconcileerror");

  /** Endings of failure types: ReplicaFailure, ResolutionFailed, CatalogSourcesUnhealthy. */
  private static final List<String> FAILURE_ENDINGS =
      List.of("failure", "failed", "error", "unhealthy", "degraded", "terminal");

  private static final List<String> READINESS_ENDINGS =
      List.of("ready", "available", "healthy", "synced");

  /** Reasons of a Progressing=True condition that say the rollout is done: in it, or at its end. */
  private static final List<String> DONE_WORDS =
      List.of("available", "complete", "succeeded", "successful");

  private static final List<String> DONE_ENDINGS =
      List.of("ready", "running", "created", "healthy");

  private static final Set<String> NOT_READY = Set.of("notready", "unready", "partiallyready");

  private static final Set<String> PROGRESS =
      Set.of(
          "progressing",
          "updating",
          "upgrading",
          "rolling",
          "scaling",
          "provisioning",
          "pending",
          "creating",
          "deploying",
          "installing",
          "migrating",
          "resizing",
          "restarting",
          "promoting");

  /** Shared: the answer for the most common object of all, a Ready=True condition. */
  private static final ResourceStatus READY =
      ResourceStatus.current("Resource is Ready")
          .decidedBy(DecidedBy.generic(DecidedBy.GenericStep.CONDITIONS));

  private ConditionSignals() {}

  /**
   * The signal of the conditions, leaving out those that describe an older generation than the
   * object's ({@code generations} null when no condition carries one).
   */
  static ResourceStatus evaluate(ObjectView object, ConditionGenerations generations) {
    Condition failed = null;
    Condition hardFailure = null;
    ResourceStatus progressing = null;
    ResourceStatus healthy = null;
    List<Condition> all = object.conditions();
    for (int i = 0; i < all.size(); i++) {
      if (generations != null && generations.isBehind(i)) {
        continue;
      }
      Condition c = all.get(i);
      Signal signal = signalOf(c);
      if (signal == Signal.FAILED) {
        failed = failed == null ? c : failed;
        hardFailure = hardFailure == null && !isRetriable(c) ? c : hardFailure;
      } else if (signal == Signal.PROGRESSING && progressing == null) {
        progressing = ResourceStatus.inProgress(c.reason(), messageOf(c));
      } else if (signal == Signal.HEALTHY && healthy != READY) {
        healthy = c.type().equals("Ready") ? READY : ResourceStatus.current(c.type() + " is True");
      }
    }
    // Whether the controller says it retries matters only for a failure that may be retried: the
    // conditions are looked at again only then.
    boolean retrying = failed != null && isRetrying(all);
    if (retrying && hardFailure == null) {
      // Every failure is a readiness condition False while another condition says the controller
      // retries: a step under way, reported with the failure's reason and message.
      return progressing != null
          ? progressing
          : ResourceStatus.inProgress(failed.reason(), messageOf(failed));
    }
    Condition failure = retrying ? hardFailure : failed;
    if (failure != null) {
      return ResourceStatus.failed(reasonOf(failure), messageOf(failure));
    }
    return progressing != null ? progressing : healthy;
  }

  /** Whether a True condition says the controller is trying again (OLM v1's Retrying, …). */
  private static boolean isRetrying(List<Condition> conditions) {
    for (Condition c : conditions) {
      if (c.status().equals("True") && HealthWords.saysRetrying(c.reason())) {
        return true;
      }
    }
    return false;
  }

  /**
   * A readiness condition False for a failure the controller may try again: not a failure type, not
   * a reason that says it stopped trying. While another condition says the controller is retrying
   * (OLM v1's Progressing=True with reason Retrying beside Installed=False), it is a step under
   * way.
   */
  private static boolean isRetriable(Condition c) {
    return c.status().equals("False") && !HealthWords.isTerminalReason(c.reason());
  }

  /** One readiness condition that is False or Unknown, as a status: Failed or InProgress. */
  static ResourceStatus evaluateOne(Condition c) {
    return signalOf(c) == Signal.FAILED
        ? ResourceStatus.failed(reasonOf(c), messageOf(c))
        : ResourceStatus.inProgress(c.reason(), messageOf(c));
  }

  static Signal signalOf(Condition c) {
    Signal signal = signalOfType(c);
    // A reason saying the controller will not try again is a failure whatever the type: the
    // operators that stop retrying say so in the reason of the condition they were working on.
    return signal != Signal.HEALTHY && HealthWords.isTerminalReason(c.reason())
        ? Signal.FAILED
        : signal;
  }

  private static Signal signalOfType(Condition c) {
    if (c.type().equals("Ready")) {
      // The common case, without normalising: most conditions that decide are a plain Ready.
      return c.status().equals("True") ? Signal.HEALTHY : readiness("ready", c);
    }
    String type = HealthWords.normalize(withoutPrefix(c.type()));
    if (isFailure(type)) {
      return c.status().equals("True") ? Signal.FAILED : null;
    }
    if (NOT_READY.contains(type)) {
      return c.status().equals("True") ? failedByMessage(c, Signal.PROGRESSING) : null;
    }
    if (isReadiness(type)) {
      return readiness(type, c);
    }
    if (isProgress(type)) {
      return progress(type, c);
    }
    return null;
  }

  /**
   * Failure types: Degraded, Failed, ReplicaFailure, ResolutionFailed, CatalogSourcesUnhealthy, and
   * a terminal error (ACK.Terminal: nothing changes until the spec does).
   */
  private static boolean isFailure(String type) {
    return FAILURE.contains(type) || any(FAILURE_ENDINGS, type::endsWith);
  }

  private static boolean isProgress(String type) {
    return any(PROGRESS, type::endsWith);
  }

  /**
   * A condition that would be progress, but gives no reason and says in its message that something
   * failed, is a failure: the message is all the controller left to tell the two apart.
   */
  private static Signal failedByMessage(Condition c, Signal otherwise) {
    return c.reason().isEmpty() && HealthWords.mentionsFailure(c.message())
        ? Signal.FAILED
        : otherwise;
  }

  private static boolean isReadiness(String type) {
    return READINESS.contains(type) || any(READINESS_ENDINGS, type::endsWith);
  }

  private static Signal readiness(String type, Condition c) {
    switch (c.status()) {
      case "True":
        return COMPLETION.contains(type) && HealthWords.isFailureReason(c.reason())
            ? Signal.FAILED
            : Signal.HEALTHY;
      case "False":
        return HealthWords.isFailureReason(c.reason()) && !isRetriedStep(c)
            ? Signal.FAILED
            : failedByMessage(c, Signal.PROGRESSING);
      case "Unknown":
        return failedByMessage(c, Signal.PROGRESSING);
      default:
        return null;
    }
  }

  /**
   * A failure reason on a step the controller says it will see through: its reason says it is
   * retrying ({@code InstallFailedRetrying}), or its message that it waits for something or will
   * try again.
   */
  private static boolean isRetriedStep(Condition c) {
    return HealthWords.saysRetrying(c.reason()) || HealthWords.mentionsWaiting(c.message());
  }

  private static Signal progress(String type, Condition c) {
    if (c.status().equals("True")) {
      return type.equals("progressing") && rolloutDone(c.reason()) ? null : Signal.PROGRESSING;
    }
    return c.status().equals("False") && HealthWords.isFailureReason(c.reason())
        ? Signal.FAILED
        : null;
  }

  private static boolean rolloutDone(String reason) {
    String r = HealthWords.normalize(reason);
    return any(DONE_WORDS, r::contains) || any(DONE_ENDINGS, r::endsWith);
  }

  /** Whether one of {@code words} passes {@code test} (a word of the type or reason looked at). */
  private static boolean any(Collection<String> words, Predicate<String> test) {
    for (String word : words) {
      if (test.test(word)) {
        return true;
      }
    }
    return false;
  }

  private static String withoutPrefix(String type) {
    int slash = type.lastIndexOf('/');
    return slash < 0 ? type : type.substring(slash + 1);
  }

  private static String reasonOf(Condition c) {
    return c.reason().isEmpty() ? c.type() + c.status() : c.reason();
  }

  /** The condition's own message, as kstatus copies it; its type and status when it has none. */
  private static String messageOf(Condition c) {
    return c.message().isEmpty() ? c.type() + " is " + c.status() : c.message();
  }
}
