package dev.capstan.applier.apply;

import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.kube.ObjectRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The outcome of applying one revision: one result per object, the revision's inventory (every
 * object it contains, whether written or not), and the API server's answer to each write.
 *
 * @param answers by object (without its version): the object as the API server returned it from the
 *     apply that wrote it, as JSON text; absent for objects that were not written
 */
public record ApplyResult(
    List<ObjectResult> objects, InventorySet inventory, Map<ObjectRef, String> answers) {

  public ApplyResult {
    objects = List.copyOf(objects);
    answers = Map.copyOf(answers);
  }

  public ApplyResult(List<ObjectResult> objects, InventorySet inventory) {
    this(objects, inventory, Map.of());
  }

  /** The object as the API server returned it from the apply that wrote it, as JSON text. */
  public Optional<String> answer(ObjectRef ref) {
    return Optional.ofNullable(answers.get(ref.withoutVersion()));
  }

  public boolean succeeded() {
    return objects.stream().noneMatch(ObjectResult::failed);
  }

  public List<ObjectResult> failures() {
    return objects.stream().filter(ObjectResult::failed).toList();
  }

  /** How many objects ended in each action, e.g. for a summary line. */
  public Map<Action, Long> counts() {
    Map<Action, Long> counts = new TreeMap<>();
    objects.forEach(r -> counts.merge(r.action(), 1L, Long::sum));
    return counts;
  }

  /** True when nothing was written. */
  public boolean unchanged() {
    return objects.stream().allMatch(r -> r.action() == Action.UNCHANGED);
  }
}
