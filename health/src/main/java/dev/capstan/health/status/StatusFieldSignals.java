package dev.capstan.health.status;

import java.util.List;
import java.util.Map;

/**
 * Step (c) of the generic layer: the status fields operators use instead of (or beside) conditions
 * — {@code status.phase}, {@code state}, {@code status}, {@code health}, {@code health.status},
 * {@code printableStatus} — read through {@link HealthWords}, plus the booleans {@code
 * status.healthy} (false is a failure) and {@code status.ready} (false is progress) and the
 * counters {@code readyReplicas} or {@code availableReplicas} below {@code replicas} (progress).
 * Fields of another type are no sign: the layer knows no schema, so it reads leniently instead of
 * rejecting the object.
 */
final class StatusFieldSignals {
  private static final List<List<String>> WORD_FIELDS =
      List.of(
          List.of("phase"),
          List.of("state"),
          List.of("status"),
          List.of("health"),
          List.of("health", "status"),
          List.of("healthStatus"),
          List.of("printableStatus"));

  /** The fields of a part's map that state its state ({@code jobStatus.state}). */
  private static final List<String> PART_STATE_KEYS = List.of("state", "phase", "health");

  /** Prefixes of a state field that is not the current one. */
  private static final List<String> NOT_THE_CURRENT_STATE =
      List.of("last", "previous", "prior", "old", "desired", "target", "expected", "requested");

  private static final int MAX_QUOTED = 64;

  private StatusFieldSignals() {}

  /** {@code status.phase} or {@code status.state} saying progress or failure; null otherwise. */
  static ResourceStatus phaseOrState(Map<?, ?> status) {
    for (String field : List.of("phase", "state")) {
      if (status.get(field) instanceof String word) {
        Signal signal = HealthWords.ofValue(word);
        String text = "status." + field + " is " + quoted(word);
        if (signal == Signal.FAILED) {
          return ResourceStatus.failed(reasonOf(List.of(field), "Failed"), text);
        }
        if (signal == Signal.PROGRESSING) {
          return ResourceStatus.inProgress(reasonOf(List.of(field), "Progressing"), text);
        }
      }
    }
    return null;
  }

  /**
   * A failure word in one of the fields operators use for the state of the whole object — {@code
   * phase}, {@code state}, {@code health}, {@code health.status}, {@code healthStatus} — else null.
   * ({@code status.status} and {@code printableStatus} are left out: some kinds use them for a
   * sub-result.)
   */
  static ResourceStatus failureWord(Map<?, ?> status) {
    for (List<String> path : WORD_FIELDS) {
      if (path.get(0).equals("status") || path.get(0).equals("printableStatus")) {
        continue;
      }
      if (valueAt(status, path) instanceof String word
          && HealthWords.ofValue(word) == Signal.FAILED) {
        return ResourceStatus.failed(
            reasonOf(path, "Failed"), "status." + String.join(".", path) + " is " + quoted(word));
      }
    }
    return null;
  }

  static ResourceStatus evaluate(Map<?, ?> status) {
    // The most common status holds conditions and observedGeneration and nothing else: then there
    // is nothing to read here, and two lookups say so.
    int plain =
        (status.containsKey("conditions") ? 1 : 0)
            + (status.containsKey("observedGeneration") ? 1 : 0);
    if (status.size() == plain) {
      return null;
    }
    ResourceStatus progressing = null;
    ResourceStatus healthy = null;
    // Walks the fields the object has rather than the fields the vocabulary knows: a status map
    // is small, and most hold none of these words.
    int progressingRank = Integer.MAX_VALUE;
    int healthyRank = Integer.MAX_VALUE;
    for (Map.Entry<?, ?> field : status.entrySet()) {
      List<String> path = wordField(field.getKey(), field.getValue());
      if (path == null) {
        ResourceStatus part = partFailure(field.getKey(), field.getValue());
        if (part != null) {
          return part;
        }
        continue;
      }
      Object value = valueAt(status, path);
      if (!(value instanceof String word)) {
        continue;
      }
      Signal signal = HealthWords.ofValue(word);
      if (signal == null) {
        continue;
      }
      int rank = WORD_FIELDS.indexOf(path);
      String text = "status." + String.join(".", path) + " is " + quoted(word);
      if (signal == Signal.FAILED) {
        return ResourceStatus.failed(reasonOf(path, "Failed"), text);
      }
      if (signal == Signal.PROGRESSING && rank < progressingRank) {
        progressingRank = rank;
        progressing = ResourceStatus.inProgress(reasonOf(path, "Progressing"), text);
      } else if (signal == Signal.HEALTHY && rank < healthyRank) {
        healthyRank = rank;
        healthy = ResourceStatus.current(text);
      }
    }
    ResourceStatus flags = flags(status);
    if (flags != null && flags.status() == Status.Failed) {
      return flags;
    }
    if (progressing != null) {
      return progressing;
    }
    return flags != null ? flags : healthy;
  }

  /** The first failure a part of the status states ({@link #partFailure}), else null. */
  static ResourceStatus partFailure(Map<?, ?> status) {
    for (Map.Entry<?, ?> field : status.entrySet()) {
      if (wordField(field.getKey(), field.getValue()) == null) {
        ResourceStatus part = partFailure(field.getKey(), field.getValue());
        if (part != null) {
          return part;
        }
      }
    }
    return null;
  }

  /**
   * A failure word where an operator states the state of the whole object under another name, or of
   * the part of it that does the work: a string field named {@code …State} or {@code …Phase}
   * (Flink's {@code lifecycleState}), the {@code state} or {@code phase} of a map named {@code
   * …Status} or {@code applicationState} (Flink's {@code jobStatus.state}, Spark's {@code
   * applicationState.state}), or the {@code health} of a map (Rook's {@code ceph.health}, a bucket
   * check's {@code bucketStatus.health}). Only a failure counts: a part that is healthy or starting
   * says little of the whole, a part that failed says the whole did. Null otherwise.
   */
  private static ResourceStatus partFailure(Object key, Object value) {
    if (!(key instanceof String name) || name.length() > MAX_QUOTED) {
      // The key is the object's and goes into the message: a long one is no field of this kind.
      return null;
    }
    if (value instanceof String word) {
      return isStateName(name) && HealthWords.ofValue(word) == Signal.FAILED
          ? ResourceStatus.failed(reasonOf(List.of(name), "Failed"), text(List.of(name), word))
          : null;
    }
    if (!(value instanceof Map<?, ?> part)) {
      return null;
    }
    List<String> keys =
        name.endsWith("Status") || name.equals("applicationState")
            ? PART_STATE_KEYS
            : List.of("health");
    for (String inner : keys) {
      if (part.get(inner) instanceof String word && HealthWords.ofValue(word) == Signal.FAILED) {
        List<String> path = List.of(name, inner);
        return ResourceStatus.failed(reasonOf(path, "Failed"), text(path, word));
      }
    }
    return null;
  }

  /**
   * {@code lifecycleState}, {@code clusterPhase}: a name ending in State or Phase, but not one that
   * names an earlier or a wanted state ({@code lastState}, {@code desiredPhase}).
   */
  private static boolean isStateName(String name) {
    if (!(name.endsWith("State") || name.endsWith("Phase")) || name.length() <= 5) {
      return false;
    }
    for (String prefix : NOT_THE_CURRENT_STATE) {
      if (name.startsWith(prefix)) {
        return false;
      }
    }
    return true;
  }

  private static String text(List<String> path, String word) {
    return "status." + String.join(".", path) + " is " + quoted(word);
  }

  /** The vocabulary path a top-level status field stands for, or null. */
  private static List<String> wordField(Object key, Object value) {
    if (!(key instanceof String name)) {
      return null;
    }
    switch (name) {
      case "phase":
        return WORD_FIELDS.get(0);
      case "state":
        return WORD_FIELDS.get(1);
      case "status":
        return WORD_FIELDS.get(2);
      case "health":
        return value instanceof Map<?, ?> ? WORD_FIELDS.get(4) : WORD_FIELDS.get(3);
      case "healthStatus":
        return WORD_FIELDS.get(5);
      case "printableStatus":
        return WORD_FIELDS.get(6);
      default:
        return null;
    }
  }

  private static ResourceStatus flags(Map<?, ?> status) {
    if (Boolean.FALSE.equals(status.get("healthy"))) {
      return ResourceStatus.failed("Unhealthy", "status.healthy is false");
    }
    if (Boolean.FALSE.equals(status.get("ready"))) {
      return ResourceStatus.inProgress("NotReady", "status.ready is false");
    }
    return replicaCounts(status);
  }

  /**
   * Fewer ready, or fewer available, replicas than {@code status.replicas} counts: pods still
   * rolling out or starting, kstatus's {@code LessReady}/{@code LessAvailable}. The updated count
   * is not compared: a partitioned rollout keeps some replicas on the old revision on purpose. Null
   * when the counters agree or are not reported as integers.
   */
  static ResourceStatus replicaCounts(Map<?, ?> status) {
    if (!(status.get("replicas") instanceof Number replicas) || !isWhole(replicas)) {
      return null;
    }
    long total = replicas.longValue();
    if (status.get("readyReplicas") instanceof Number ready
        && isWhole(ready)
        && ready.longValue() < total) {
      return ResourceStatus.inProgress("LessReady", "Ready: " + ready + "/" + total);
    }
    if (status.get("availableReplicas") instanceof Number available
        && isWhole(available)
        && available.longValue() < total) {
      return ResourceStatus.inProgress("LessAvailable", "Available: " + available + "/" + total);
    }
    return null;
  }

  private static boolean isWhole(Number n) {
    return n instanceof Integer || n instanceof Long || n instanceof Short;
  }

  private static Object valueAt(Map<?, ?> status, List<String> path) {
    Object value = status;
    for (String key : path) {
      if (!(value instanceof Map<?, ?> map)) {
        return null;
      }
      value = map.get(key);
    }
    return value;
  }

  private static String reasonOf(List<String> path, String suffix) {
    String last = path.get(path.size() - 1);
    String head = path.get(0);
    String name =
        path.size() > 1 ? head + Character.toUpperCase(last.charAt(0)) + last.substring(1) : last;
    return Character.toUpperCase(name.charAt(0)) + name.substring(1) + suffix;
  }

  /** The value as the object wrote it, cut short: a status value is not the place for data. */
  private static String quoted(String word) {
    String cut = word.length() > MAX_QUOTED ? word.substring(0, MAX_QUOTED) + "…" : word;
    return "'" + cut + "'";
  }
}
