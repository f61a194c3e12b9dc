package dev.capstan.applier.apply;

import dev.capstan.applier.common.CapstanMetadata;
import dev.capstan.applier.ignore.JsonPointer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fields in which a live object differs from what applying its manifest would make of it (the
 * server-side dry-run's answer), as JSON Pointers: what another writer changed. The API server's
 * own bookkeeping (managedFields, resourceVersion, generation and the like) and {@code status} are
 * left out, and so are ignored fields. Keys are named, values never (a Secret's data keys are
 * shown, its values not). Bounded: at most {@link #MAX_FIELDS} pointers, and nothing below {@link
 * #MAX_DEPTH}.
 */
final class DriftedFields {

  static final int MAX_FIELDS = 100;
  static final int MAX_DEPTH = 32;

  private static final Set<String> LEFT_OUT = Set.of("apiVersion", "kind", "status");
  private static final Set<String> SERVER_METADATA =
      Set.of(
          "managedFields",
          "resourceVersion",
          "generation",
          "uid",
          "creationTimestamp",
          "deletionTimestamp",
          "deletionGracePeriodSeconds",
          "selfLink",
          "name",
          "namespace",
          "generateName");

  private DriftedFields() {}

  /** The pointers of the fields that differ, sorted. */
  static List<String> between(
      Map<String, Object> live, Map<String, Object> applied, List<JsonPointer> ignored) {
    Set<String> out = new TreeSet<>();
    Set<String> keys = new TreeSet<>(live.keySet());
    keys.addAll(applied.keySet());
    for (String key : keys) {
      if (LEFT_OUT.contains(key)) {
        continue;
      }
      JsonPointer pointer = new JsonPointer(List.of(key));
      if (key.equals("metadata")) {
        metadata(pointer, live.get(key), applied.get(key), ignored, out);
      } else {
        compare(pointer, live.get(key), applied.get(key), ignored, out);
      }
    }
    return out.stream().limit(MAX_FIELDS).toList();
  }

  private static void metadata(
      JsonPointer at, Object live, Object applied, List<JsonPointer> ignored, Set<String> out) {
    Map<?, ?> before = live instanceof Map<?, ?> m ? m : Map.of();
    Map<?, ?> after = applied instanceof Map<?, ?> m ? m : Map.of();
    Set<String> keys = new TreeSet<>();
    before.keySet().forEach(k -> keys.add(String.valueOf(k)));
    after.keySet().forEach(k -> keys.add(String.valueOf(k)));
    // The digest is Capstan's own bookkeeping: a look may send another one than the apply wrote
    // (a HelmRelease's look counts its ignore rules, the release's apply does not).
    List<JsonPointer> leftOut = new ArrayList<>(ignored);
    leftOut.add(at.child("annotations").child(CapstanMetadata.APPLIED_DIGEST));
    for (String key : keys) {
      if (!SERVER_METADATA.contains(key)) {
        compare(at.child(key), before.get(key), after.get(key), leftOut, out);
      }
    }
  }

  private static void compare(
      JsonPointer at, Object live, Object applied, List<JsonPointer> ignored, Set<String> out) {
    if (out.size() >= MAX_FIELDS || ignored.stream().anyMatch(at::isWithin)) {
      return;
    }
    if (live instanceof Map<?, ?> before
        && applied instanceof Map<?, ?> after
        && at.segments().size() < MAX_DEPTH) {
      Set<String> keys = new TreeSet<>();
      before.keySet().forEach(k -> keys.add(String.valueOf(k)));
      after.keySet().forEach(k -> keys.add(String.valueOf(k)));
      for (String key : keys) {
        compare(at.child(key), before.get(key), after.get(key), ignored, out);
      }
    } else if (live instanceof List<?> before
        && applied instanceof List<?> after
        && before.size() == after.size()
        && at.segments().size() < MAX_DEPTH) {
      for (int i = 0; i < before.size(); i++) {
        compare(at.child(Integer.toString(i)), before.get(i), after.get(i), ignored, out);
      }
    } else if (!IgnoredFieldsResolver.sameValue(live, applied)) {
      out.add(at.toString());
    }
  }
}
