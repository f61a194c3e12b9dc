package dev.capstan.engine.ops.leader;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a coordination Lease: only the holder reconciles, a standby takes over soon
 * after the lease duration when the holder dies, and a leader that loses its Lease while running
 * ends its process at once, without a graceful stop, rather than risk two writers (the operator
 * framework's own exit is not used: it would hang when the Lease is given up from a shutdown hook).
 * Shards ({@code --watch-label-selector}) each elect their own leader: the Lease name includes a
 * hash of the selector.
 *
 * <p>The Lease lasts 11 s from its last renewal, renewed every second, and a leader that has not
 * seen its renewal for 8 s stops ({@link LeaseWatchdog}, whatever its renewal request is waiting
 * on). A standby may lead once 11 s have passed since the renewal time the Lease records, and looks
 * every 1-2.2 s, so it leads 11-13.2 s after the leader's last renewal; the old leader has stopped
 * about 3 s before that, less the watchdog's quarter-second tick and any skew between the two
 * machines' clocks. Kubernetes' own controllers use 15 s, 10 s and 2 s, which puts a take-over at
 * up to 19 s. A leader that cannot read its Lease for 8 s (an API server down or shedding load that
 * long) stops too, as its renewals would fail as well.
 */
public final class LeaderElection {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);
  static final String LEASE_PREFIX = "capstan-leader";
  static final Duration LEASE_DURATION = Duration.ofSeconds(11);
  static final Duration RENEW_DEADLINE = Duration.ofSeconds(8);
  static final Duration RETRY_PERIOD = Duration.ofSeconds(1);

  private final String leaseName;
  private final Optional<String> leaseNamespace;
  private final String identity;
  private final AtomicBoolean leading = new AtomicBoolean();
  private final AtomicReference<String> leader = new AtomicReference<>("");
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final Runnable onLostLease;
  private final LeaseWatchdog watchdog;
  private final LeaseWatch leaseWatch;

  /**
   * @param onLostLease what to do when the Lease is lost while running (the process exits); not
   *     called when the engine itself is stopping and gives the Lease up
   * @param clock the clock the renew deadline is measured with: the wall clock, which the Lease's
   *     renewal times are written in
   */
  public LeaderElection(
      Optional<String> watchLabelSelector,
      Optional<String> leaseNamespace,
      String identity,
      Runnable onLostLease,
      Clock clock) {
    this.leaseName = leaseName(watchLabelSelector);
    this.leaseNamespace = leaseNamespace;
    this.identity = identity;
    this.onLostLease = onLostLease;
    this.watchdog = new LeaseWatchdog(identity, RENEW_DEADLINE, clock);
    this.leaseWatch = new LeaseWatch(watchdog, leaseName, leading::get, onLostLease);
  }

  /**
   * Starts the Lease's watchdog ({@link LeaseWatch}) with the engine's client, before the replica
   * may lead.
   */
  public void watch(KubernetesClient client) {
    leaseWatch.start(client, leaseNamespace(client), RETRY_PERIOD);
  }

  /** Stops the watchdog (the controllers have stopped). */
  public void close() {
    leaseWatch.close();
  }

  /**
   * Ends the process at once, without its shutdown hooks: a graceful stop waits for the reconciles
   * in flight, which go on writing (a partitioned leader's requests time out one by one, 20 s and
   * more) while a standby may already lead. As a kill, it loses nothing a restart does not redo.
   */
  public static void exitProcess() {
    Runtime.getRuntime().halt(1);
  }

  /** The engine is stopping: giving the Lease up is expected, not a reason to exit. */
  public void stopping() {
    stopping.set(true);
  }

  public static String leaseName(Optional<String> selector) {
    return selector
        .filter(s -> !s.isBlank())
        .map(s -> LEASE_PREFIX + "-" + shortHash(s))
        .orElse(LEASE_PREFIX);
  }

  /**
   * The pod name in a cluster; elsewhere the host name plus a random part, so that two local
   * processes differ.
   */
  public static String defaultIdentity(Optional<String> podName) {
    return podName
        .filter(s -> !s.isBlank())
        .orElseGet(
            () -> {
              String host;
              try {
                host = InetAddress.getLocalHost().getHostName();
              } catch (UnknownHostException e) {
                host = "capstan";
              }
              return host + "-" + UUID.randomUUID().toString().substring(0, 8);
            });
  }

  public LeaderElectionConfiguration configuration() {
    LeaderCallbacks callbacks =
        new LeaderCallbacks(
            () -> {
              watchdog.startedLeading();
              leading.set(true);
              LOG.info("leader election: {} now leads (Lease {})", identity, leaseName);
            },
            () -> {
              boolean wasLeading = leading.getAndSet(false);
              if (wasLeading && !stopping.get()) {
                LOG.error(
                    "leader election: {} lost the Lease {}; exiting so that only one replica"
                        + " reconciles",
                    identity,
                    leaseName);
                onLostLease.run();
              }
            },
            newLeader -> {
              leader.set(newLeader);
              LOG.info("leader election: Lease {} held by {}", leaseName, newLeader);
            });
    return new LeaderElectionConfiguration(
        leaseName,
        leaseNamespace.orElse(null),
        LEASE_DURATION,
        RENEW_DEADLINE,
        RETRY_PERIOD,
        identity,
        callbacks,
        false);
  }

  public boolean isLeading() {
    return leading.get();
  }

  String currentLeader() {
    return leader.get();
  }

  public String leaseName() {
    return leaseName;
  }

  /** The Lease's namespace: the one given (the pod's), else the client's. */
  public String leaseNamespace(KubernetesClient client) {
    return leaseNamespace.orElse(client.getNamespace());
  }

  String identity() {
    return identity;
  }

  private static String shortHash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 5);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
