package dev.capstan.sharding;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * A model of a cluster's Kustomizations and replicas, no cluster: Kustomizations are hashed into
 * slots by a key, replicas join, die and are replaced one by one as a rolling upgrade does, a few
 * Kustomizations come and go between events, and after each event the balancer works out the next
 * assignment from the last. Each event is measured: balance and what moved.
 */
final class ChurnSimulation {
  /** What one event did. */
  record Event(
      String what,
      int replicas,
      double spread,
      double loadMoved,
      long kustomizationsMoved,
      int maxRanges) {}

  private final Balancer balancer;
  private final SlotSpace space;
  private final Random random;
  private final List<Long> hashes = new ArrayList<>();
  private final List<Integer> sizes = new ArrayList<>();
  private final List<String> replicas = new ArrayList<>();
  private final List<Event> events = new ArrayList<>();
  private Assignment assignment;
  private int nextReplica;

  ChurnSimulation(Balancer balancer, SlotSpace space, long seed) {
    this.balancer = balancer;
    this.space = space;
    this.random = new Random(seed);
    this.assignment = Assignment.empty(space);
  }

  /** Adds Kustomizations each hashed by its own uid. */
  void addByUid(int count) {
    for (int i = 0; i < count; i++) {
      hashes.add(ShardKey.UID.hash(new UUID(random.nextLong(), random.nextLong()).toString()));
      sizes.add(inventorySize());
    }
  }

  /** Adds namespaces of 1 to {@code maxSize} Kustomizations each, hashed by the namespace. */
  void addByNamespace(int namespaces, int maxSize) {
    for (int n = 0; n < namespaces; n++) {
      long hash = ShardKey.NAMESPACE.hash("tenant-" + n + "-" + random.nextInt(1_000_000));
      int size = 1 + random.nextInt(maxSize);
      for (int i = 0; i < size; i++) {
        hashes.add(hash);
        sizes.add(inventorySize());
      }
    }
  }

  /** Most Kustomizations hold a few objects; one in ten holds tens, one in a hundred hundreds. */
  private int inventorySize() {
    int roll = random.nextInt(100);
    if (roll == 0) {
      return 100 + random.nextInt(400);
    }
    return roll < 10 ? 10 + random.nextInt(40) : 1 + random.nextInt(8);
  }

  void start(int count) {
    for (int i = 0; i < count; i++) {
      replicas.add(newName());
    }
    step("start with " + count);
  }

  void join() {
    replicas.add(newName());
    step("join");
  }

  void die() {
    replicas.remove(random.nextInt(replicas.size()));
    step("die");
  }

  /** Every replica replaced by a new one, one at a time: a Deployment's rolling upgrade. */
  void rollingUpgrade() {
    for (String old : List.copyOf(replicas)) {
      replicas.add(newName());
      step("upgrade: new pod");
      replicas.remove(old);
      step("upgrade: old pod gone");
    }
  }

  /** A few Kustomizations deleted and as many created (by uid) between events. */
  void drift(double share) {
    int changes = (int) (hashes.size() * share);
    for (int i = 0; i < changes; i++) {
      int victim = random.nextInt(hashes.size());
      hashes.set(
          victim, ShardKey.UID.hash(new UUID(random.nextLong(), random.nextLong()).toString()));
    }
    step("drift " + changes);
  }

  List<Event> events() {
    return List.copyOf(events);
  }

  private String newName() {
    return "capstan-" + nextReplica++;
  }

  private void step(String what) {
    SlotLoads loads = loads();
    Assignment next = balancer.rebalance(assignment, replicas, loads);
    double max = 0;
    int maxRanges = 0;
    for (String replica : replicas) {
      max = Math.max(max, next.loadOf(replica, loads));
      maxRanges = Math.max(maxRanges, next.rangesOf(replica).size());
    }
    double spread = max / (loads.total() / replicas.size());
    double moved = next.loadMovedSince(assignment, loads) / loads.total();
    events.add(new Event(what, replicas.size(), spread, moved, movedCount(next), maxRanges));
    assignment = next;
  }

  private long movedCount(Assignment next) {
    long moved = 0;
    for (long hash : hashes) {
      int slot = space.slotOf(hash);
      String before = assignment.owner(slot);
      if (before != null && !before.equals(next.owner(slot))) {
        moved++;
      }
    }
    return moved;
  }

  private SlotLoads loads() {
    SlotLoads.Builder loads = SlotLoads.builder(space);
    for (int i = 0; i < hashes.size(); i++) {
      loads.add(hashes.get(i), sizes.get(i));
    }
    return loads.build();
  }
}
