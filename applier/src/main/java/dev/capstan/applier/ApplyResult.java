package dev.capstan.applier;

import dev.capstan.applier.inventory.InventorySet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcome of applying one revision: one result per object, and the revision's inventory (every
 * object it contains, whether written or not).
 */
public record ApplyResult(List<ObjectResult> objects, InventorySet inventory) {

  public ApplyResult {
    objects = List.copyOf(objects);
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
