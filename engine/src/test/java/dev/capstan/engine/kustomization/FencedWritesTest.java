package dev.capstan.engine.kustomization;

import static dev.capstan.engine.kustomization.PipelineFakes.T0;
import static dev.capstan.engine.kustomization.PipelineFakes.inventory;
import static dev.capstan.engine.kustomization.PipelineFakes.kustomization;
import static dev.capstan.engine.kustomization.PipelineFakes.ref;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.engine.shard.WriteFence;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A replica cut off mid-reconcile stops writing at the next write: the fence is asked before the
 * apply, the prune, the deletion of the objects and each status write, not only when the reconcile
 * starts, and the waits inside a stage end by the fence's deadline. The fence here lapses at a
 * deadline of the pipeline's clock, as the shard gate's does when its Lease was not renewed for two
 * thirds of it.
 */
class FencedWritesTest {
  private static final ObjectRef OLD = ref("ConfigMap", "old");
  private static final Instant DEADLINE = T0.plusSeconds(10);

  private final PipelineFakes fakes = new PipelineFakes();
  private final List<String> writes = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    fakes.close();
  }

  private void fenceAtDeadline() {
    fakes.fence =
        object -> {
          if (!fakes.clock.instant().isBefore(DEADLINE)) {
            throw new WriteFence.Refused("lapsed");
          }
        };
    fakes.pruning =
        refs -> {
          writes.add("prune " + refs);
          return refs.stream().map(r -> ObjectResult.of(r, Action.DELETED)).toList();
        };
  }

  @Test
  void anApplyThatOutlivesTheLeaseIsFollowedByNoPruneAndNoStatus() {
    fenceAtDeadline();
    Kustomization ks = withInventory(kustomization(), OLD);
    fakes.applying =
        request -> {
          writes.add("apply");
          fakes.clock.advance(Duration.ofSeconds(11)); // the apply outlives the write deadline
          return PipelineFakes.allCreated(request);
        };
    int before = fakes.written.size();

    assertThrows(WriteFence.Refused.class, () -> fakes.pipeline.reconcile(ks));

    assertEquals(List.of("apply"), writes);
    // only the announcement made before the apply was written
    assertEquals(before + 1, fakes.written.size());
  }

  @Test
  void aReconcileStartedJustBeforeTheDeadlineAppliesNothing() {
    fenceAtDeadline();
    Kustomization ks = withInventory(kustomization(), OLD);
    fakes.applying =
        request -> {
          writes.add("apply");
          return PipelineFakes.allCreated(request);
        };
    fakes.clock.advance(Duration.ofSeconds(10));

    assertThrows(WriteFence.Refused.class, () -> fakes.pipeline.reconcile(ks));

    assertTrue(writes.isEmpty(), writes.toString());
    assertTrue(fakes.written.isEmpty());
  }

  @Test
  void theObjectsOfADeletedKustomizationAreNotDeletedByAReplicaThatLostIt() {
    fenceAtDeadline();
    Kustomization ks = withInventory(kustomization(), OLD);
    ks.getMetadata().setDeletionTimestamp(T0.toString());
    ks.getMetadata().setFinalizers(List.of("finalizers.capstan.dev"));
    fakes.clock.advance(Duration.ofSeconds(10));

    assertThrows(WriteFence.Refused.class, () -> fakes.pipeline.delete(ks));

    assertTrue(fakes.deletions.isEmpty(), fakes.deletions.toString());
  }

  @Test
  void withinTheDeadlineEverythingIsWritten() {
    fenceAtDeadline();
    Kustomization ks = withInventory(kustomization("wait: false"), OLD);
    fakes.applying =
        request -> {
          writes.add("apply");
          return PipelineFakes.allCreated(request);
        };

    fakes.pipeline.reconcile(ks);

    assertEquals(List.of("apply", "prune " + List.of(OLD)), writes);
    assertTrue(fakes.written.size() >= 2);
  }

  @Test
  void theWaitsOfEachStageEndByTheFencesDeadline() {
    fenceAtDeadline();
    fakes.fence = fenceCuttingTimeouts();
    Kustomization ks = withInventory(kustomization("wait: false", "timeout: 5m"), OLD);
    fakes.clock.advance(Duration.ofSeconds(4));

    fakes.pipeline.reconcile(ks);

    // spec.timeout is five minutes; the fence has six seconds left
    assertEquals(Duration.ofSeconds(6), fakes.applies.get(0).timeout());
    assertEquals(List.of(Duration.ofSeconds(6)), fakes.pruneTimeouts);
  }

  @Test
  void theDeletionOfTheObjectsWaitsNoLongerThanTheFenceHasLeft() {
    fakes.fence = fenceCuttingTimeouts();
    Kustomization ks = withInventory(kustomization("timeout: 5m"), OLD);
    ks.getMetadata().setDeletionTimestamp(T0.toString());
    ks.getMetadata().setFinalizers(List.of("finalizers.capstan.dev"));
    fakes.clock.advance(Duration.ofSeconds(7));

    fakes.pipeline.delete(ks);

    assertEquals(List.of(OLD + " within " + Duration.ofSeconds(3)), fakes.deletions);
  }

  /** Refuses from the deadline on, and cuts timeouts to the time left before it. */
  private WriteFence fenceCuttingTimeouts() {
    return new WriteFence() {
      @Override
      public void check(HasMetadata object) {
        if (!fakes.clock.instant().isBefore(DEADLINE)) {
          throw new WriteFence.Refused("lapsed");
        }
      }

      @Override
      public Duration bound(HasMetadata object, Duration timeout) {
        Duration left = Duration.between(fakes.clock.instant(), DEADLINE);
        return left.compareTo(timeout) < 0 ? left : timeout;
      }
    };
  }

  private static Kustomization withInventory(Kustomization ks, ObjectRef... refs) {
    ks.setStatus(new KustomizationStatus(null, List.of(), null, null, null, inventory(refs)));
    return ks;
  }
}
