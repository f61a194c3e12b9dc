package dev.capstan.engine.ops.leader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LeaderElectionTest {

  @Test
  void eachShardHasItsOwnLease() {
    assertEquals("capstan-leader", LeaderElection.leaseName(Optional.empty()));
    assertEquals("capstan-leader", LeaderElection.leaseName(Optional.of(" ")));
    String a = LeaderElection.leaseName(Optional.of("sharding.capstan.dev/key=shard1"));
    String b = LeaderElection.leaseName(Optional.of("sharding.capstan.dev/key=shard2"));
    assertTrue(a.matches("capstan-leader-[0-9a-f]{10}"), a);
    assertNotEquals(a, b);
    assertEquals(
        a, LeaderElection.leaseName(Optional.of("sharding.capstan.dev/key=shard1")), "stable");
  }

  @Test
  void identityIsThePodNameElseUniquePerProcess() {
    assertEquals("capstan-7d9f", LeaderElection.defaultIdentity(Optional.of("capstan-7d9f")));
    assertNotEquals(
        LeaderElection.defaultIdentity(Optional.empty()),
        LeaderElection.defaultIdentity(Optional.empty()));
  }

  @Test
  void losingTheLeaseWhileRunningExitsButGivingItUpOnShutdownDoesNot() {
    AtomicInteger exits = new AtomicInteger();
    LeaderElection election =
        new LeaderElection(
            Optional.empty(),
            Optional.of("capstan-system"),
            "me",
            exits::incrementAndGet,
            Clock.systemUTC());
    LeaderElectionConfiguration config = election.configuration();
    assertEquals("capstan-leader", config.getLeaseName());
    assertEquals(Optional.of("capstan-system"), config.getLeaseNamespace());
    assertEquals(Optional.of("me"), config.getIdentity());
    assertEquals(Duration.ofSeconds(11), config.getLeaseDuration());
    assertEquals(Duration.ofSeconds(8), config.getRenewDeadline());
    assertEquals(Duration.ofSeconds(1), config.getRetryPeriod());
    assertFalse(
        config.isExitOnStopLeading(), "the framework's own exit would hang in a shutdown hook");
    var callbacks = config.getLeaderCallbacks().orElseThrow();

    callbacks.onNewLeader("other");
    assertEquals("other", election.currentLeader());
    callbacks.onStopLeading();
    assertEquals(0, exits.get(), "never led: nothing to give up");

    callbacks.onStartLeading();
    assertTrue(election.isLeading());
    callbacks.onStopLeading();
    assertFalse(election.isLeading());
    assertEquals(1, exits.get(), "lost the Lease while running");

    callbacks.onStartLeading();
    election.stopping();
    callbacks.onStopLeading();
    assertEquals(1, exits.get(), "giving the Lease up on shutdown is not a loss");
  }
}
