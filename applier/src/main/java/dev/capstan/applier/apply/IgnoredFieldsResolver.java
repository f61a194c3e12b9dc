package dev.capstan.applier.apply;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capstan.applier.ignore.JsonPointer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What to send for the ignored fields of an object that is about to be written anyway (something
 * else of it changed), so that the write reverts none of them. For each ignored field the manifest
 * sets to a value other than the live one:
 *
 * <ul>
 *   <li><b>strip</b>: another Apply manager owns it, or the live object does not have it: it is
 *       left out of the body, and Capstan gives up its share of the field;
 *   <li><b>adopt</b>: otherwise (Capstan is the only Apply manager, and another writer updated it,
 *       e.g. {@code kubectl edit} or a scaler): the live value is sent, so Capstan keeps owning the
 *       field without reverting it.
 * </ul>
 *
 * Fields whose manifest value equals the live one, and fields the manifest does not set, are sent
 * as the manifest has them.
 */
final class IgnoredFieldsResolver {

  private IgnoredFieldsResolver() {}

  /** The object to send instead of {@code desired}, given its live state. */
  static DesiredObject resolve(DesiredObject desired, GenericKubernetesResource live) {
    if (desired.ignored().isEmpty() || live == null) {
      return desired;
    }
    Map<String, Object> body = DesiredObject.asMap(desired.object());
    Map<String, Object> current = DesiredObject.asMap(live);
    List<ManagedFieldsEntry> entries = FieldOwnership.mainEntries(live);
    boolean changed = false;
    for (JsonPointer pointer : desired.ignored()) {
      Optional<Object> wanted = pointer.get(body);
      if (wanted.isEmpty() || pointer.segments().isEmpty()) {
        continue;
      }
      Optional<Object> have = liveValue(pointer, body, current, entries);
      if (have.isPresent() && sameValue(wanted.get(), have.get())) {
        continue;
      }
      IgnoredFields located = IgnoredFields.locate(List.of(pointer), body, entries);
      boolean strip =
          have.isEmpty()
              || located.paths().stream()
                  .anyMatch(
                      path ->
                          FieldOwnership.ownedByAnotherApplyManager(
                              live, path, located.expanded()));
      changed |= strip ? pointer.remove(body) : pointer.set(body, have.get());
    }
    if (!changed) {
      return desired;
    }
    return desired.sending(
        Serialization.jsonMapper().convertValue(body, GenericKubernetesResource.class));
  }

  /**
   * The live value at the pointer; an index names the manifest's item, found in the live list by
   * its key (or at the same index when the item has no key).
   */
  private static Optional<Object> liveValue(
      JsonPointer pointer,
      Map<String, Object> body,
      Map<String, Object> live,
      List<ManagedFieldsEntry> entries) {
    Object mine = body;
    Object theirs = live;
    List<String> path = new ArrayList<>();
    for (String token : pointer.segments()) {
      if (mine instanceof List<?> myList && theirs instanceof List<?> liveList) {
        Object myItem = new JsonPointer(List.of(token)).get(myList).orElse(null);
        Optional<String> key = ListKeys.of(myItem, ListKeys.at(entries, path));
        theirs =
            key.isPresent()
                ? ListKeys.item(liveList, key.get()).orElse(null)
                : new JsonPointer(List.of(token)).get(liveList).orElse(null);
        path.add(key.map(ListKeys::element).orElse(token));
        mine = myItem;
      } else if (theirs instanceof Map<?, ?> liveMap) {
        theirs = liveMap.get(token);
        mine = mine instanceof Map<?, ?> myMap ? myMap.get(token) : null;
        path.add(token);
      } else {
        return Optional.empty();
      }
      if (theirs == null) {
        return Optional.empty();
      }
    }
    return Optional.of(theirs);
  }

  /** Equal as JSON values: keys in any order, numbers by value (2 and 2L are equal). */
  static boolean sameValue(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    JsonNode x = Serialization.jsonMapper().valueToTree(a);
    JsonNode y = Serialization.jsonMapper().valueToTree(b);
    return x.equals(
        (p, q) ->
            p.isNumber() && q.isNumber()
                ? p.decimalValue().compareTo(q.decimalValue())
                : (p.equals(q) ? 0 : 1),
        y);
  }
}
