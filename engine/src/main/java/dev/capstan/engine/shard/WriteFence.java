package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;

/**
 * Asked right before each write stage made for an object (its apply, prune, deletion of its objects
 * and each status write): a replica that lost an object since its reconcile started starts no
 * further stage for it. The waits inside a stage (a CRD to be Established, an object deleted to be
 * recreated, deletions to end) are cut to the time the fence has left ({@link #bound}); the writes
 * of a stage already started are not stopped. Without sharding every write goes through ({@link
 * #NONE}).
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

  /**
   * {@code timeout} cut to the time left before this engine may no longer write for {@code object}
   * (as known now): the waits of a stage that started end by then. Not cut by default.
   */
  default Duration bound(HasMetadata object, Duration timeout) {
    return timeout;
  }

  /** A write turned away: the object is (or may be) another replica's now. */
  final class Refused extends RuntimeException {
    public Refused(String message) {
      super(message, null, false, false);
    }
  }
}
