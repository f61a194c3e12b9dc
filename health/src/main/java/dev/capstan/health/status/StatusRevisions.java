package dev.capstan.health.status;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Step (b), beyond {@code status.observedGeneration} and the object's own conditions: the other
 * places a status says which generation or revision of the object it describes. A Ready-looking
 * status that describes an older one says nothing yet about the newest: the controller is still
 * evaluating, rolling out or promoting it.
 *
 * <ul>
 *   <li>A generation the controller writes under another name or deeper in the status, read against
 *       {@code metadata.generation}: a field named {@code lastEvaluatedGeneration} (Open Cluster
 *       Management's configuration policies), {@code observedGeneration} with a prefix that names
 *       the controller's own step ({@code lastObservedGeneration}, {@code reconciledGeneration},
 *       …), an {@code observedGeneration} one level down ({@code status.byPod[].observedGeneration}
 *       in Gatekeeper), and the conditions one level down ({@code status.parents[].conditions}, the
 *       Gateway API's routes and policies and the listeners of a Gateway). A generation some other
 *       component observed ({@code schedulerObservedGeneration}, {@code
 *       observedWorkloadGeneration}, {@code installPlanGeneration}) is not the object's.
 *   <li>A pair of fields naming the newest revision and the one that is ready or serving,
 *       different: Knative's {@code latestCreatedRevisionName} and {@code latestReadyRevisionName},
 *       Flagger's {@code lastAppliedSpec} and {@code lastPromotedSpec}, Argo Rollouts' {@code
 *       currentPodHash} and {@code stableRS}.
 * </ul>
 */
final class StatusRevisions {
  private static final Set<String> GENERATION_PREFIXES =
      Set.of(
          "observed",
          "lastObserved",
          "lastEvaluated",
          "evaluated",
          "reconciled",
          "lastReconciled",
          "lastHandled",
          "lastProcessed",
          "processed",
          "lastSynced");

  /** Newest revision first, then the one the status says is ready or serving. */
  private static final List<List<String>> REVISION_PAIRS =
      List.of(
          List.of("latestCreatedRevisionName", "latestReadyRevisionName"),
          List.of("lastAppliedSpec", "lastPromotedSpec"),
          List.of("currentPodHash", "stableRS"));

  /**
   * An annotation by which a user asks the controller to act again, then the status field in which
   * the controller writes the last such request it handled: Flux's {@code requestedAt} and Kargo's
   * refresh.
   */
  private static final List<List<String>> REQUEST_PAIRS =
      List.of(
          List.of("reconcile.fluxcd.io/requestedAt", "lastHandledReconcileAt"),
          List.of("kargo.akuity.io/refresh", "lastHandledRefresh"));

  private static final String NEWER_REVISION = "LatestRevisionNotReady";
  private static final String REQUEST_NOT_HANDLED = "RequestNotHandled";
  private static final int MAX_QUOTED = 64;

  private StatusRevisions() {}

  /**
   * InProgress naming the first field behind {@code metadata.generation}, else null; null too when
   * the object has no integer generation.
   */
  static ResourceStatus generationBehind(Map<?, ?> object, Map<?, ?> status) {
    if (!(object.get("metadata") instanceof Map<?, ?> metadata)
        || !(metadata.get("generation") instanceof Number number)
        || !isWhole(number)) {
      return null;
    }
    long generation = number.longValue();
    for (Map.Entry<?, ?> field : status.entrySet()) {
      if (!(field.getKey() instanceof String name)
          || name.equals("conditions")
          || (name.equals("observedGeneration") && !(field.getValue() instanceof String))) {
        // A whole-number observedGeneration is kstatus's to read; one the controller writes as a
        // string of digits (Argo Rollouts, Humio) is read here.
        continue;
      }
      // The key is the object's: cut short, as values are, before it goes into a message.
      String path = "status." + cut(name);
      String behind =
          field.getValue() instanceof List<?> list
              ? behindInList(path, list, generation)
              : field.getValue() instanceof Map<?, ?> map
                  ? behindInMap(path, map, generation, false)
                  : isGenerationName(name) && isBehind(field.getValue(), generation)
                      ? path + " is " + field.getValue()
                      : null;
      if (behind != null) {
        return ResourceStatus.inProgress(
            GenerationCheck.REASON, behind + ", but the object is at generation " + generation);
      }
    }
    return null;
  }

  /** InProgress when a newest revision differs from the one ready or serving, else null. */
  static ResourceStatus newerRevision(Map<?, ?> status) {
    for (List<String> pair : REVISION_PAIRS) {
      if (status.get(pair.get(0)) instanceof String newest
          && status.get(pair.get(1)) instanceof String ready
          && !newest.isEmpty()
          && !ready.isEmpty()
          && !newest.equals(ready)) {
        return ResourceStatus.inProgress(
            NEWER_REVISION,
            "status."
                + pair.get(0)
                + " is "
                + quoted(newest)
                + ", but status."
                + pair.get(1)
                + " is "
                + quoted(ready));
      }
    }
    return null;
  }

  /**
   * InProgress when the object asks its controller to act again (an annotation of {@link
   * #REQUEST_PAIRS}) and the status names another request as the last one handled: the status
   * describes the object before the request. Null when the status does not name a handled request
   * at all (a controller that never wrote one cannot be told apart from one that ignores it).
   */
  static ResourceStatus requestNotHandled(Map<?, ?> object, Map<?, ?> status) {
    if (!(object.get("metadata") instanceof Map<?, ?> metadata)
        || !(metadata.get("annotations") instanceof Map<?, ?> annotations)) {
      return null;
    }
    for (List<String> pair : REQUEST_PAIRS) {
      if (annotations.get(pair.get(0)) instanceof String requested
          && status.get(pair.get(1)) instanceof String handled
          && !requested.isEmpty()
          && !requested.equals(handled)) {
        return ResourceStatus.inProgress(
            REQUEST_NOT_HANDLED,
            "annotation "
                + pair.get(0)
                + " is "
                + quoted(requested)
                + ", but status."
                + pair.get(1)
                + " is "
                + quoted(handled));
      }
    }
    return null;
  }

  private static String behindInList(String path, List<?> list, long generation) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) instanceof Map<?, ?> element) {
        String behind = behindInMap(path + "[" + i + "]", element, generation, true);
        if (behind != null) {
          return behind;
        }
      }
    }
    return null;
  }

  /**
   * A generation field of a map one level below the status, or one of its conditions behind. The
   * plain name {@code observedGeneration} counts here, where it is the element's report of the
   * object, not at the top, where kstatus reads it.
   */
  private static String behindInMap(String path, Map<?, ?> map, long generation, boolean element) {
    for (Map.Entry<?, ?> field : map.entrySet()) {
      if (!(field.getKey() instanceof String name)) {
        continue;
      }
      if (isGenerationName(name) && isBehind(field.getValue(), generation)) {
        return path + "." + name + " is " + field.getValue();
      }
      if (element && name.equals("conditions") && field.getValue() instanceof List<?> conditions) {
        for (int j = 0; j < conditions.size(); j++) {
          if (conditions.get(j) instanceof Map<?, ?> condition
              && isBehind(condition.get("observedGeneration"), generation)) {
            return path
                + ".conditions["
                + j
                + "].observedGeneration is "
                + condition.get("observedGeneration");
          }
        }
      }
    }
    return null;
  }

  /**
   * {@code observedGeneration} (at the top only when written as a string: kstatus reads a whole
   * number there) or one of the prefixes that name the controller's own step before {@code
   * Generation}.
   */
  private static boolean isGenerationName(String name) {
    if (!name.endsWith("Generation")) {
      return false;
    }
    String prefix = name.substring(0, name.length() - "Generation".length());
    return GENERATION_PREFIXES.contains(prefix);
  }

  private static boolean isBehind(Object value, long generation) {
    if (value instanceof String digits) {
      return isDigits(digits) && Long.parseLong(digits) < generation;
    }
    return value instanceof Number n && isWhole(n) && n.longValue() < generation;
  }

  /** A generation some controllers write as a string: "3", not a hash. */
  private static boolean isDigits(String value) {
    if (value.isEmpty() || value.length() > 18) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) < '0' || value.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean isWhole(Number n) {
    return n instanceof Integer || n instanceof Long || n instanceof Short;
  }

  private static String quoted(String word) {
    return "'" + cut(word) + "'";
  }

  private static String cut(String word) {
    return word.length() > MAX_QUOTED ? word.substring(0, MAX_QUOTED) + "…" : word;
  }
}
