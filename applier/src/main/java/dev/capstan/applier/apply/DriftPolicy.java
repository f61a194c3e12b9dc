package dev.capstan.applier.apply;

import dev.capstan.kube.ObjectRef;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an apply does with an object that another writer changed or deleted although what Capstan
 * would send for it is what it sent last (the object carries the same digest): drift.
 *
 * @param mode correct, report or leave the drift alone
 * @param expected inventory ids of the objects the owner applied before and expects to find: one of
 *     them missing from the cluster is drift (reported, or left alone) rather than an object to
 *     create; empty after a change of the revision or the spec, when everything missing is created
 */
public record DriftPolicy(Mode mode, Set<String> expected) {

  /** How drift is handled. */
  public enum Mode {
    /** Apply the object again (the default). */
    CORRECT,
    /** Do not write it; report it as {@link Action#DRIFTED} with the fields that changed. */
    REPORT,
    /** Do not look: an object carrying the digest is unchanged, a missing expected one stays so. */
    IGNORE,
    /**
     * Compare only and never write, whatever the digest says: every object is compared by a dry run
     * with what is live (ignored fields left out) and reported {@link Action#DRIFTED} if it differs
     * or is missing. A look at what an owner applied before, not an apply ({@link #REPORT} writes
     * an object whose manifest changed; this mode writes nothing).
     */
    LOOK
  }

  /** Drift is corrected. */
  public static final DriftPolicy CORRECT = new DriftPolicy(Mode.CORRECT, Set.of());

  public DriftPolicy {
    Objects.requireNonNull(mode, "mode");
    expected = Set.copyOf(expected);
  }

  /** A policy of {@code mode} expecting the objects {@code applied} to exist. */
  public static DriftPolicy of(Mode mode, Collection<ObjectRef> applied) {
    return new DriftPolicy(
        mode, applied.stream().map(ObjectRef::inventoryId).collect(Collectors.toSet()));
  }

  /** Whether {@code ref} was applied before and is expected to exist. */
  public boolean expects(ObjectRef ref) {
    return expected.contains(ref.inventoryId());
  }
}
