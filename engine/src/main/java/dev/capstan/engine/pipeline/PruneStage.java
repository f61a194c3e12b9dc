package dev.capstan.engine.pipeline;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
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

  /** The resource manager's prune and delete. */
  static PruneStage of(ResourceManager manager) {
    return new PruneStage() {
      @Override
      public List<ObjectResult> prune(
          InventorySet previous, InventorySet current, Owner owner, Duration timeout) {
        return manager.prune(previous, current, owner, timeout);
      }

      @Override
      public List<ObjectResult> deleteInventory(
          InventorySet inventory, Owner owner, Duration timeout, boolean waitForTermination) {
        return manager.delete(inventory, owner, timeout, waitForTermination);
      }
    };
  }
}
