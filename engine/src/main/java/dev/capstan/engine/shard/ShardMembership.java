package dev.capstan.engine.shard;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.sharding.Assignment;
import dev.capstan.sharding.Balancer;
import dev.capstan.sharding.Handoff;
import dev.capstan.sharding.Liveness;
import dev.capstan.sharding.SlotLoads;
import dev.capstan.sharding.SlotRange;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's part in sharing the Kustomizations: every renew period (and at once when the
 * group's Leases change, or another replica's Lease expires: {@link PromptRounds}) it renews its
 * own Lease, sees which replicas of its group live, works out the balanced assignment from the
 * shared map's claims and the load of each slot, and moves its own claim towards it by {@link
 * Handoff}'s rules, writing the shared map by compare-and-swap. The gate follows what the map says
 * after each round. On a graceful stop it stops starting reconciles, lets the running ones end, and
 * gives its slots and its Lease up; the others' watches see it and they take over at once.
 */
public final class ShardMembership implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ShardMembership.class);
  private static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);

  private final ShardOptions options;
  private final ReplicaLeases leases;
  private final ShardEvents events;
  private final Set<String> known = new TreeSet<>();
  private boolean nameInUseTold;
  private final ShardMap map;
  private final ShardGate gate;
  private final Supplier<Stream<Kustomization>> cached;
  private final Liveness liveness;
  private final Balancer balancer = new Balancer(1.05);
  private final LongSupplier nanoClock;
  private final Clock clock;
  private final ScheduledExecutorService timer;
  private final ShardCounters counters = new ShardCounters();
  private final PromptRounds prompt;
  private final KubernetesClient client;
  private final String namespace;
  // start() opens the watch and close() closes it, each under this lock: a close during start's
  // first round either finds the watch open or keeps start from opening it
  private final Object watchLock = new Object();
  private GroupWatch watch;
  private volatile boolean stopping;
  // A process that stopped running (paused, cut off): its rounds do nothing, not even renew.
  private volatile boolean frozen;

  /**
   * @param gate the gate this membership opens and closes ({@link ShardGate#of})
   * @param cached the Kustomizations in this replica's cache, for the load of each slot
   */
  public ShardMembership(
      KubernetesClient client,
      ShardOptions options,
      String namespace,
      ShardGate gate,
      Supplier<Stream<Kustomization>> cached,
      Clock clock,
      LongSupplier nanoClock) {
    this.options = options;
    this.client = client;
    this.namespace = namespace;
    this.leases = new ReplicaLeases(client, namespace, options.group(), nanoClock);
    this.events = new ShardEvents(client);
    this.map =
        new ShardMap(
            client,
            namespace,
            options.group(),
            options.space(),
            options.key().name().toLowerCase(Locale.ROOT));
    this.gate = gate;
    gate.onOwning(
        new ReplicaLabel(
                client, options.replicaName(), namespace, options.group(), clock, nanoClock)
            ::mark);
    this.cached = cached;
    this.liveness = new Liveness(nanoClock);
    this.nanoClock = nanoClock;
    this.clock = clock;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "capstan-shards");
              t.setDaemon(true);
              return t;
            });
    this.prompt = new PromptRounds(this::after, this::round);
  }

  private Runnable after(long delayNanos, Runnable task) {
    try {
      ScheduledFuture<?> scheduled = timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
      return () -> scheduled.cancel(false);
    } catch (RejectedExecutionException e) {
      return () -> {}; // stopping: no more rounds
    }
  }

  /** What the reconcilers ask before they start. */
  public ShardGate gate() {
    return gate;
  }

  /** This replica's name (its Lease's holder). */
  public String replicaName() {
    return options.replicaName();
  }

  /** Counts of owned slots and handoffs, for the metrics. */
  public ShardCounters counters() {
    return counters;
  }

  /**
   * Takes part: the first round now, then one each renew period and one soon after each change of
   * the group's Leases that the watch reports.
   */
  public void start() {
    round();
    long period = options.renewPeriod().toMillis();
    try {
      timer.scheduleWithFixedDelay(this::round, period, period, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      return; // closed during the first round
    }
    synchronized (watchLock) {
      if (stopping) {
        return;
      }
      watch =
          new GroupWatch(
              client,
              namespace,
              options.group(),
              map.name(),
              new LeaseEvents(options.replicaName(), map.name(), new Listener()));
    }
  }

  /** Moves what the watch reports onto the membership's thread, where the liveness is kept. */
  private final class Listener implements LeaseEvents.Listener {
    @Override
    public void renewed(ReplicaLeases.Seen lease) {
      try {
        timer.execute(
            () -> {
              liveness.observe(lease.replica(), lease.version(), lease.durationSeconds());
              prompt.expiry(liveness.nextExpiry(options.replicaName()), nanoClock.getAsLong());
            });
      } catch (RejectedExecutionException e) {
        // stopping
      }
    }

    @Override
    public void changed() {
      prompt.soon();
    }
  }

  /**
   * Stops this membership's rounds without a word to anyone, as a paused process or one cut off
   * from the API server would: no renewal, no release, no handoff. For tests of what the others do.
   */
  void freeze() {
    frozen = true;
  }

  /** One round; failures are logged and the next round tries again. */
  void round() {
    if (stopping || frozen) {
      return;
    }
    try {
      long before = nanoClock.getAsLong();
      // A replica whose last renewal lapsed may have been judged dead and had its slots taken:
      // it opens nothing until a write of the shared map (which would conflict) goes through.
      boolean lapsed = !gate.freshAt(before);
      ReplicaLeases.Renewal renewal =
          leases.renew(options.replicaName(), options.leaseDuration().toSeconds(), clock.instant());
      if (renewal == ReplicaLeases.Renewal.NAME_IN_USE) {
        nameInUse();
        return;
      }
      if (renewal == ReplicaLeases.Renewal.FAILED) {
        LOG.warn("could not renew this replica's Lease; it stops reconciling when it lapses");
        return;
      }
      nameInUseTold = false;
      settle(before, observe(), lapsed);
      prompt.expiry(liveness.nextExpiry(options.replicaName()), nanoClock.getAsLong());
    } catch (KubernetesClientException | IllegalStateException e) {
      LOG.warn("shard round failed: {}", e.getMessage());
    } catch (RuntimeException e) {
      // a scheduled task that throws is never run again: this replica would stop renewing
      LOG.error("shard round failed", e);
    }
  }

  /** The replicas whose Leases are there now, each observed for its liveness. */
  private Set<String> observe() {
    Set<String> seen = new TreeSet<>();
    for (ReplicaLeases.Seen lease : leases.list()) {
      liveness.observe(lease.replica(), lease.version(), lease.durationSeconds());
      seen.add(lease.replica());
    }
    Set<String> live = liveness.live();
    known.stream().filter(r -> !seen.contains(r) && !live.contains(r)).forEach(liveness::forget);
    known.retainAll(live);
    known.addAll(seen);
    return seen;
  }

  /**
   * Another process renews the Lease of this replica's name: this one takes no slot (its gate stays
   * shut or lapses) until that Lease has not changed for its whole duration.
   */
  private void nameInUse() {
    if (nameInUseTold) {
      return;
    }
    nameInUseTold = true;
    String message =
        "another process renews the Lease of replica '"
            + options.replicaName()
            + "' of group '"
            + options.group()
            + "' (two processes given the same --replica-name, or two installations sharing a"
            + " group): this process takes no Kustomization until that Lease stops being renewed"
            + " for "
            + options.leaseDuration().toSeconds()
            + " s";
    LOG.error("{}", message);
    // On the Lease as the server has it (its uid), so that kubectl describe lease lists the Event.
    leases
        .read(options.replicaName())
        .ifPresent(
            lease ->
                events.warnOn(
                    lease, ShardEvents.Reason.REPLICA_NAME_IN_USE, message, clock.instant()));
  }

  private void settle(long renewedAt, Set<String> seen, boolean lapsed) {
    ShardMap.Read read = map.read();
    // A Lease deleted by hand while its replica still claims slots counts until it expires (that
    // replica may still be writing, and recreates it); one deleted after its claims were given up
    // (a graceful stop) is gone at once.
    Set<String> live = new TreeSet<>(liveness.live());
    live.removeIf(r -> !seen.contains(r) && !read.claims().containsKey(r));
    live.add(options.replicaName());
    Map<String, List<SlotRange>> claims = new HashMap<>();
    read.claims()
        .forEach(
            (replica, ranges) -> {
              if (live.contains(replica) && !ranges.isEmpty()) {
                claims.put(replica, ranges);
              }
            });
    Assignment target = balancer.rebalance(Assignment.of(options.space(), claims), live, loads());
    Handoff.Plan plan = Handoff.plan(options.replicaName(), claims, target, gate::busy);
    List<SlotRange> claim =
        withholdReleased(claims.getOrDefault(options.replicaName(), List.of()), plan);
    Map<String, List<SlotRange>> next = new HashMap<>(claims);
    next.put(options.replicaName(), claim);
    next.values().removeIf(List::isEmpty);
    List<SlotRange> mine = claims.getOrDefault(options.replicaName(), List.of());
    if (lapsed || !next.equals(read.claims())) {
      if (!map.write(read, next, options.replicaName())) {
        // Another replica wrote first, perhaps taking this one's slots: nothing more is opened
        // (and after two thirds of a Lease without a round, nothing at all) until a round reads
        // its change and writes after it.
        return;
      }
      mine = claim;
    }
    BitSet claimed = bits(mine);
    Set<Integer> draining = new TreeSet<>();
    claimed.stream()
        .filter(slot -> !options.replicaName().equals(target.owner(slot)))
        .forEach(draining::add);
    counters.claimed(claimed.cardinality(), draining.size());
    counters.owned(cached.get().filter(ks -> claimed.get(gate.slotOf(ks))).count());
    gate.renewed(renewedAt, claimed, draining);
  }

  /**
   * The claim to write: the plan's, with the slots it releases withheld from new reconciles first,
   * and any of them that a reconcile entered meanwhile kept (it drains next round).
   */
  private List<SlotRange> withholdReleased(List<SlotRange> before, Handoff.Plan plan) {
    BitSet kept = bits(plan.claim());
    Set<Integer> released = new TreeSet<>();
    bits(before).stream().filter(slot -> !kept.get(slot)).forEach(released::add);
    if (released.isEmpty()) {
      return plan.claim();
    }
    gate.withhold(released);
    released.stream().filter(gate::busy).forEach(kept::set);
    return ranges(kept);
  }

  private static List<SlotRange> ranges(BitSet slots) {
    List<SlotRange> ranges = new ArrayList<>();
    for (int from = slots.nextSetBit(0); from >= 0; ) {
      int to = slots.nextClearBit(from);
      ranges.add(new SlotRange(from, to));
      from = slots.nextSetBit(to);
    }
    return ranges;
  }

  private SlotLoads loads() {
    return gate.loadsOf(cached.get(), ShardMembership::inventorySize);
  }

  private static int inventorySize(HasMetadata object) {
    Kustomization ks = (Kustomization) object;
    return ks.getStatus() == null
            || ks.getStatus().inventory() == null
            || ks.getStatus().inventory().entries() == null
        ? 0
        : ks.getStatus().inventory().entries().size();
  }

  private static BitSet bits(List<SlotRange> ranges) {
    BitSet bits = new BitSet();
    ranges.forEach(r -> bits.set(r.from(), r.to()));
    return bits;
  }

  /**
   * Stops starting reconciles, waits for the running ones, then gives slots and Lease up. When
   * reconciles still run after the drain limit, nothing is given up: the others take the slots once
   * the Lease expires, after this process is gone.
   */
  @Override
  public void close() {
    stopping = true;
    synchronized (watchLock) {
      if (watch != null) {
        watch.close();
      }
    }
    timer.shutdownNow();
    try {
      // a round under way could otherwise reopen the gate after it closed
      timer.awaitTermination(options.leaseDuration().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    gate.close();
    long deadline = nanoClock.getAsLong() + DRAIN_LIMIT.toNanos();
    while (gate.anyBusy() && nanoClock.getAsLong() < deadline) {
      sleepBriefly();
    }
    if (gate.anyBusy()) {
      LOG.warn("reconciles still run after {}; the slots move when the Lease expires", DRAIN_LIMIT);
      return;
    }
    giveUp();
  }

  private void giveUp() {
    for (int attempt = 0; attempt < 5; attempt++) {
      try {
        ShardMap.Read read = map.read();
        Map<String, List<SlotRange>> next = new HashMap<>(read.claims());
        if (next.remove(options.replicaName()) == null
            || map.write(read, next, options.replicaName())) {
          break;
        }
      } catch (KubernetesClientException | IllegalStateException e) {
        LOG.warn("could not give this replica's slots up: {}", e.getMessage());
        break;
      }
    }
    leases.delete(options.replicaName());
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
