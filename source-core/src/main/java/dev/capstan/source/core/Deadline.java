package dev.capstan.source.core;

import java.time.Clock;
import java.time.Instant;

/**
 * When a fetch must be done. The network operations get the time left as their timeouts; the walks
 * that follow (the tree export, the ignore rules it applies, the copies of included trees) check it
 * as they go, because a tree and its rules come from the tenant's repository and no walk of them
 * may outlive the fetch.
 */
public record Deadline(Clock clock, Instant at) {

  /**
   * @throws SourceException with {@link FailureReason#TIMEOUT} once the deadline has passed
   */
  public void check() {
    if (clock.instant().isAfter(at)) {
      throw new SourceException(
          FailureReason.TIMEOUT, "the fetch timed out while writing the tree");
    }
  }
}
