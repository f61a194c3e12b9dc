package dev.capstan.engine.ops.leader;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link LeaseWatchdog}: while the replica leads, reads the Lease every retry period; and
 * asks the watchdog four times a second, on two threads of their own so that a read that hangs
 * delays no check. It runs from before the replica may lead until its controllers have stopped, so
 * a leader partitioned while it stops gracefully is stopped in time as well.
 */
final class LeaseWatch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseWatch.class);
  static final Duration TICK = Duration.ofMillis(250);

  private final LeaseWatchdog watchdog;
  private final String leaseName;
  private final BooleanSupplier leading;
  private final Runnable halt;
  private ScheduledExecutorService threads;

  /**
   * @param leading whether this replica leads now
   * @param halt what ends the process when the watchdog says so
   */
  LeaseWatch(LeaseWatchdog watchdog, String leaseName, BooleanSupplier leading, Runnable halt) {
    this.watchdog = watchdog;
    this.leaseName = leaseName;
    this.leading = leading;
    this.halt = halt;
  }

  synchronized void start(KubernetesClient client, String namespace, Duration readEvery) {
    if (threads != null) {
      return;
    }
    threads = Executors.newScheduledThreadPool(2, named());
    threads.scheduleWithFixedDelay(
        () -> read(client, namespace), 0, readEvery.toMillis(), TimeUnit.MILLISECONDS);
    threads.scheduleAtFixedRate(this::check, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void close() {
    if (threads != null) {
      threads.shutdownNow();
    }
  }

  /** Halts a leader whose last renewal seen is past the renew deadline. */
  void check() {
    try {
      if (watchdog.expired(leading.getAsBoolean())) {
        LOG.error(
            "leader election: this replica has seen no renewal of the Lease {} for {} ms;"
                + " exiting so that only one replica reconciles",
            leaseName,
            watchdog.sinceConfirmed().toMillis());
        halt.run();
      }
    } catch (RuntimeException e) {
      // A task that throws is never run again, which would leave a leader unguarded.
      LOG.error("leader election: the Lease's watchdog failed ({}); exiting", e.toString());
      halt.run();
    }
  }

  /** What a read of the Lease showed (null: there is none). */
  void observe(Lease lease) {
    Optional<LeaseSpec> spec = Optional.ofNullable(lease).map(Lease::getSpec);
    watchdog.observed(spec.map(LeaseSpec::getHolderIdentity), spec.map(LeaseSpec::getRenewTime));
  }

  private void read(KubernetesClient client, String namespace) {
    if (!leading.getAsBoolean()) {
      return; // a standby has nothing to confirm
    }
    try {
      observe(client.leases().inNamespace(namespace).withName(leaseName).get());
    } catch (KubernetesClientException e) {
      // Unread, the last renewal seen grows older: the check decides.
      LOG.debug("leader election: cannot read Lease {}: HTTP {}", leaseName, e.getCode());
    } catch (RuntimeException e) {
      // A task that throws is never run again: keep reading.
      LOG.debug("leader election: cannot read Lease {}: {}", leaseName, e.toString());
    }
  }

  private static ThreadFactory named() {
    AtomicInteger count = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, "capstan-lease-watch-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
