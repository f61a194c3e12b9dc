package dev.capstan.engine.kustomization;

import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.applier.prune.Pruner;
import java.time.Duration;
import java.util.List;

/** The prune stage and the deletion of a Kustomization's objects, as the pipeline sees them. */
public interface PruneStage {

  /** Deletes what {@code previous} has and {@code current} does not. */
  List<ObjectResult> prune(
      InventorySet previous, InventorySet current, Owner owner, Duration timeout);

  /** Deletes the objects of a deleted Kustomization, waiting for them to go if asked to. */
  List<ObjectResult> deleteInventory(
      InventorySet inventory, Owner owner, Duration timeout, boolean waitForTermination);

  /** The applier's pruner. */
  static PruneStage of(Pruner pruner) {
    return new PruneStage() {
      @Override
      public List<ObjectResult> prune(
          InventorySet previous, InventorySet current, Owner owner, Duration timeout) {
        return pruner.prune(previous, current, owner, timeout);
      }

      @Override
      public List<ObjectResult> deleteInventory(
          InventorySet inventory, Owner owner, Duration timeout, boolean waitForTermination) {
        return pruner.deleteInventory(inventory, owner, timeout, waitForTermination);
      }
    };
  }
}
