package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Asked right before each write made for an object (its apply, prune, deletion of its objects and
 * status write): a replica that lost an object since its reconcile started stops there, before
 * another replica may start on it. Without sharding every write goes through ({@link #NONE}).
 */
@FunctionalInterface
public interface WriteFence {
  /** Lets every write through: one engine. */
  WriteFence NONE = object -> {};

  /**
   * Returns when this engine may write for {@code object} now.
   *
   * @throws Refused when it may not
   */
  void check(HasMetadata object);

  /** A write turned away: the object is (or may be) another replica's now. */
  final class Refused extends RuntimeException {
    public Refused(String message) {
      super(message, null, false, false);
    }
  }
}
