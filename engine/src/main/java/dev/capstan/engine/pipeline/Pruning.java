package dev.capstan.engine.pipeline;

import dev.capstan.applier.ObjectResult;
import dev.capstan.applier.Owner;
import dev.capstan.applier.inventory.Inventory;
import dev.capstan.applier.prune.DeletionPolicy;
import dev.capstan.applier.prune.Pruner;
import java.time.Duration;
import java.util.List;

/** The prune stage and the deletion of a Kustomization's objects, as the pipeline sees them. */
public interface Pruning {

  /** Deletes what {@code previous} has and {@code current} does not. */
  List<ObjectResult> prune(Inventory previous, Inventory current, Owner owner, Duration timeout);

  /** Deletes the objects of a deleted Kustomization as its deletion policy says. */
  List<ObjectResult> onKustomizationDeleted(DeletionPolicy policy, boolean prune, Inventory inventory, Owner owner,
      Duration timeout);

  /** The applier's pruner. */
  static Pruning of(Pruner pruner) {
    return new Pruning() {
      @Override
      public List<ObjectResult> prune(Inventory previous, Inventory current, Owner owner, Duration timeout) {
        return pruner.prune(previous, current, owner, timeout);
      }

      @Override
      public List<ObjectResult> onKustomizationDeleted(DeletionPolicy policy, boolean prune, Inventory inventory,
          Owner owner, Duration timeout) {
        return pruner.onKustomizationDeleted(policy, prune, inventory, owner, timeout);
      }
    };
  }
}
