package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.Drift;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.health.AggregateHealth;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One reconcile of one Kustomization, as far as its stages have taken it. Each stage hands the next
 * a new one with what it found; the status is written from the last.
 *
 * @param previous the objects the status names, as the reconcile found them
 * @param timings the spec's interval, retryInterval and timeout; null until read
 * @param identity who acts for the Kustomization; null until decided
 * @param revision the source revision worked from; null until the source was reached
 * @param originRevision the artifact's origin revision, when its source records one
 * @param digest the digest of the set built, once the build stage is done
 * @param since when the reconcile that applied began (this one, or the one whose wait it continues)
 * @param inventory the objects now in the cluster, when a stage changed them; null otherwise
 * @param health the health of the objects waited for, when evaluated
 * @param drift the drift the apply found (reported in warn mode), when the apply ran to its end
 * @param plaintexts what this attempt decrypted, to be kept out of its messages
 */
record Attempt(
    Kustomization object,
    NamespacedName key,
    WaitTracker.Inputs inputs,
    Instant started,
    InventorySet previous,
    Timings timings,
    ActingIdentity identity,
    String originRevision,
    String digest,
    Instant since,
    InventorySet inventory,
    AggregateHealth health,
    Drift drift,
    Plaintexts plaintexts) {

  /**
   * A reconcile of {@code object} begun at {@code started}, after {@code configChanges} changes of
   * its ConfigMaps and Secrets were seen.
   */
  static Attempt start(Kustomization object, Instant started, long configChanges) {
    KustomizationStatus status = object.getStatus();
    Inventory previous = status == null ? null : status.inventory();
    return new Attempt(
        object,
        NamespacedName.of(object),
        new WaitTracker.Inputs(generationOf(object), null, requestedAtOf(object), configChanges),
        started,
        Inventories.toApplier(previous),
        null,
        null,
        null,
        null,
        started,
        null,
        null,
        null,
        Plaintexts.NONE);
  }

  long generation() {
    return inputs.generation();
  }

  String requestedAt() {
    return inputs.requestedAt();
  }

  String revision() {
    return inputs.revision();
  }

  String namespace() {
    return key.namespace();
  }

  /** With the spec's timings read and who acts for it decided. */
  Attempt prepared(Timings newTimings, ActingIdentity newIdentity) {
    return with(
        c -> {
          c.timings = newTimings;
          c.identity = newIdentity;
        });
  }

  /** With who acts for it completed (the remote cluster of spec.kubeConfig). */
  Attempt actingAs(ActingIdentity newIdentity) {
    return with(c -> c.identity = newIdentity);
  }

  /** With the source's artifact found. */
  Attempt sourced(String newRevision, String newOriginRevision) {
    return with(
        c -> {
          c.inputs =
              new WaitTracker.Inputs(
                  inputs.generation(), newRevision, inputs.requestedAt(), inputs.configChanges());
          c.originRevision = newOriginRevision;
        });
  }

  /** With the set built: its digest, and what was decrypted for it. */
  Attempt built(String newDigest, Plaintexts newPlaintexts) {
    return with(
        c -> {
          c.digest = newDigest;
          c.plaintexts = newPlaintexts;
        });
  }

  /** With the objects now in the cluster. */
  Attempt withInventory(InventorySet newInventory) {
    return with(c -> c.inventory = newInventory);
  }

  /** With the apply done: the objects now in the cluster, and the drift it found. */
  Attempt applied(InventorySet newInventory, Drift newDrift) {
    return with(
        c -> {
          c.inventory = newInventory;
          c.drift = newDrift;
        });
  }

  /** With the health of the objects waited for. */
  Attempt withHealth(AggregateHealth newHealth) {
    return with(c -> c.health = newHealth);
  }

  /** Counts in no history entry (a cancelled wait, as in Flux). */
  Attempt withoutDigest() {
    return with(c -> c.digest = null);
  }

  /**
   * This attempt looks again at the wait {@code wait} of the same inputs: what it applied counts.
   */
  Attempt continuing(WaitTracker.PendingWait wait) {
    return with(c -> c.appliedIn(wait));
  }

  /**
   * The attempt whose wait {@code wait} is: the inputs it applied, what it built, who it acted as.
   */
  Attempt forWait(WaitTracker.PendingWait wait) {
    return with(
        c -> {
          c.inputs = wait.inputs();
          c.appliedIn(wait);
          c.inventory = null;
          c.health = null;
          c.drift = null;
          c.plaintexts = Plaintexts.NONE;
        });
  }

  /** A copy with {@code change} made to it: the one place an attempt is copied field by field. */
  private Attempt with(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.attempt();
  }

  /** The fields of an attempt while a stage's copy of it is made. */
  private static final class Copy {
    private final Attempt from;
    WaitTracker.Inputs inputs;
    Timings timings;
    ActingIdentity identity;
    String originRevision;
    String digest;
    Instant since;
    InventorySet inventory;
    AggregateHealth health;
    Drift drift;
    Plaintexts plaintexts;

    Copy(Attempt from) {
      this.from = from;
      inputs = from.inputs;
      timings = from.timings;
      identity = from.identity;
      originRevision = from.originRevision;
      digest = from.digest;
      since = from.since;
      inventory = from.inventory;
      health = from.health;
      drift = from.drift;
      plaintexts = from.plaintexts;
    }

    /** What the wait's attempt applied: its origin, its set, when it began, its objects. */
    void appliedIn(WaitTracker.PendingWait wait) {
      originRevision = wait.originRevision();
      digest = wait.digest();
      since = wait.started();
      inventory = wait.inventory();
    }

    Attempt attempt() {
      return new Attempt(
          from.object,
          from.key,
          inputs,
          from.started,
          from.previous,
          timings,
          identity,
          originRevision,
          digest,
          since,
          inventory,
          health,
          drift,
          plaintexts);
    }
  }

  private static long generationOf(Kustomization object) {
    Long gen = object.getMetadata().getGeneration();
    return gen == null ? 0 : gen;
  }

  private static String requestedAtOf(Kustomization object) {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(KustomizationPipeline.REQUESTED_AT);
  }
}
