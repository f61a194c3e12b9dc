package dev.capstan.engine.shard;

import dev.capstan.sharding.Liveness;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Whether the replicas of other groups are live, judged as {@link ReplicaLeases} judges its own
 * group's: a Lease is live until a lease duration has passed, on this process's clock, since this
 * process last saw its resourceVersion change. Its renew time is never compared with the local
 * clock, so skewed clocks cannot make two writers. A Lease judged live is read again only after a
 * third of its duration, not on every reconcile.
 */
final class ForeignLeases {
  /** Reads a Lease by namespace and name; null when there is none. */
  @FunctionalInterface
  interface Reader {
    Lease read(String namespace, String name);
  }

  // a Lease that names no duration is taken to last what this project's replicas' Leases last
  private static final long DEFAULT_DURATION_SECONDS =
      ShardOptions.DEFAULT_LEASE_DURATION.toSeconds();

  private record Read(long atNanos, long durationNanos) {}

  private final Reader reader;
  private final LongSupplier nanoClock;
  private final Liveness liveness;
  private final Map<String, Read> reads = new HashMap<>();

  ForeignLeases(Reader reader, LongSupplier nanoClock) {
    this.reader = reader;
    this.nanoClock = nanoClock;
    this.liveness = new Liveness(nanoClock);
  }

  /**
   * Whether the Lease {@code namespace/name} is live; a Lease that cannot be read is taken for live
   * (the safe side), one that is not there (or holds nothing) for gone.
   *
   * @throws RuntimeException what the reader throws, when it cannot read the Lease
   */
  boolean live(String namespace, String name) {
    String key = namespace + "/" + name;
    synchronized (this) {
      Read last = reads.get(key);
      if (last != null
          && nanoClock.getAsLong() - last.atNanos() < last.durationNanos() / 3
          && liveness.live().contains(key)) {
        return true;
      }
    }
    Lease lease = reader.read(namespace, name);
    synchronized (this) {
      if (lease == null || lease.getSpec() == null || lease.getSpec().getHolderIdentity() == null) {
        liveness.forget(key);
        reads.remove(key);
        return false;
      }
      long seconds =
          lease.getSpec().getLeaseDurationSeconds() == null
              ? DEFAULT_DURATION_SECONDS
              : lease.getSpec().getLeaseDurationSeconds();
      liveness.observe(key, String.valueOf(lease.getMetadata().getResourceVersion()), seconds);
      reads.put(key, new Read(nanoClock.getAsLong(), seconds * 1_000_000_000L));
      return liveness.live().contains(key);
    }
  }
}
