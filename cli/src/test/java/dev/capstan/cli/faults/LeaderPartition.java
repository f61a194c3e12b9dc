package dev.capstan.cli.faults;

import dev.capstan.cli.faults.FaultyProxy.Mode;
import dev.capstan.cli.install.CapstanProcess;
import dev.capstan.testing.AuditLog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The leading engine cut off from the API server (its connections black-holed) or from its Lease
 * only (its renewals refused, every other request passing) while a standby waits: the leader must
 * lose its Lease and exit before the standby takes the Lease over, and, when the API server writes
 * an audit log, no write of the old leader may come after one of the new leader's ({@link
 * WriterAudit}). Then a new standby is started in the old leader's place.
 */
final class LeaderPartition {
  /** How long the old leader may take to exit after the partition heals, at most. */
  private static final Duration EXIT_LIMIT = Duration.ofSeconds(30);

  /** The audit log is written in batches: how long to wait for the last ones. */
  private static final Duration AUDIT_FLUSH = Duration.ofSeconds(3);

  private final FaultEngines engines;
  private final String namespace;
  private final Optional<Path> auditLog;

  LeaderPartition(FaultEngines engines, String namespace, Optional<Path> auditLog) {
    this.engines = engines;
    this.namespace = namespace;
    this.auditLog = auditLog;
  }

  /** The seconds from the partition's start until the standby led and the old leader exited. */
  record TakeOver(double led, double exited) {}

  /** What the leader is cut off from. */
  enum Cut {
    /** The API server: every connection of the leader black-holed by its proxy. */
    CONNECTIONS {
      @Override
      Healing start(FaultEngines engines, CapstanProcess leader, String name) {
        FaultyProxy proxy = engines.proxyOf(leader);
        proxy.set(Mode.BLACK_HOLE);
        return () -> proxy.set(Mode.PASS);
      }
    },
    /** Its Lease only: its renewals refused by the API server ({@link LeaseRefusal}). */
    LEASE {
      @Override
      Healing start(FaultEngines engines, CapstanProcess leader, String name)
          throws InterruptedException {
        return engines.refuseRenewals(name)::close;
      }
    };

    /** Cuts the leader off; returns once the cut is in effect. */
    abstract Healing start(FaultEngines engines, CapstanProcess leader, String name)
        throws InterruptedException;
  }

  /** Heals a cut. */
  interface Healing {
    void heal();
  }

  /** Cuts the leader off for {@code length}; says how the take-over went. */
  String inject(Cut cut, Duration length) throws Exception {
    if (!engines.hasStandby()) {
      throw new IllegalStateException("this run has no standby");
    }
    CapstanProcess leader = engines.engine();
    String name = engines.name(leader);
    if (!engines.holder().equals(Optional.of(name))) {
      throw new IllegalStateException("no live engine holds the Lease");
    }
    Instant from = Instant.now();
    // Only what the log gains from here is read: the whole log is hundreds of MB after a few runs.
    Optional<AuditLog.Mark> mark =
        auditLog.isEmpty() ? Optional.empty() : Optional.of(AuditLog.Mark.now(auditLog.get()));
    TakeOver takeOver = partition(cut, leader, name, length);
    if (!Double.isNaN(takeOver.exited())) {
      engines.startEngine(); // the new standby, in the old leader's place
    }
    if (Double.isNaN(takeOver.led())) {
      throw new FaultBroke("no standby took the Lease within the " + length.toSeconds() + " s");
    }
    // Read whatever else broke: the writers say what a late exit let through.
    String writers = audit(mark, from);
    if (Double.isNaN(takeOver.exited())) {
      throw new FaultBroke(
          String.format(
              "the old leader %s still ran %d s after the partition healed; %s",
              name, EXIT_LIMIT.toSeconds(), writers));
    }
    if (takeOver.exited() > takeOver.led()) {
      throw new FaultBroke(
          String.format(
              "the old leader %s still ran when the standby took the Lease (%.1f s after the"
                  + " partition began; it exited after %.1f s); %s",
              name, takeOver.led(), takeOver.exited(), writers));
    }
    return String.format(
        "the standby led %.1f s after the partition began, the old leader had exited after"
            + " %.1f s; %s",
        takeOver.led(), takeOver.exited(), writers);
  }

  private TakeOver partition(Cut cut, CapstanProcess leader, String name, Duration length)
      throws InterruptedException {
    Healing healing = cut.start(engines, leader, name);
    long start = System.nanoTime();
    double led = Double.NaN;
    double exited = Double.NaN;
    try {
      while (System.nanoTime() - start < length.toNanos()) {
        double now = (System.nanoTime() - start) / 1e9;
        if (Double.isNaN(led) && engines.holderQuietly().filter(h -> !h.equals(name)).isPresent()) {
          led = now;
        }
        if (Double.isNaN(exited) && !leader.isAlive()) {
          exited = now;
        }
        Thread.sleep(100);
      }
    } finally {
      healing.heal();
    }
    if (Double.isNaN(exited) && leader.waitFor(EXIT_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
      exited = (System.nanoTime() - start) / 1e9;
    }
    return new TakeOver(led, exited);
  }

  /** What the audit log says of the writers since {@code from}; broken if two overlapped. */
  private String audit(Optional<AuditLog.Mark> mark, Instant from)
      throws IOException, InterruptedException, FaultBroke {
    if (mark.isEmpty()) {
      return "writers not checked: the API server writes no audit log";
    }
    Thread.sleep(AUDIT_FLUSH.toMillis());
    WriterAudit.Writes writes =
        WriterAudit.read(mark.get(), namespace, FaultEngines.AGENT_PREFIX, from);
    if (writes.count() == 0) {
      throw new FaultBroke(
          "the audit log shows no write of an engine ("
              + FaultEngines.AGENT_PREFIX
              + "NAME) since the partition began, though the new leader must have written");
    }
    if (writes.overlapping() > 0) {
      throw new FaultBroke("two writers overlapped (audit log): " + writes);
    }
    return writes.toString();
  }
}
