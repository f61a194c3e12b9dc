package dev.capstan.engine.shard;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.sharding.ShardKey;
import dev.capstan.sharding.SlotLoads;
import dev.capstan.sharding.SlotSpace;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

/**
 * Whether this replica may reconcile a Kustomization now: its slot is claimed here and not being
 * handed over, and this replica renewed its Lease recently enough that nobody else can have taken
 * the slot. Counts the reconciles running in each slot, so that a slot is released only when none
 * runs. Without sharding, {@link #afterCachesFilled} lets a reconcile through once its controller's
 * caches filled ({@link #everything()}: always, for tests).
 */
public final class ShardGate {
  /** A reconcile let through; closing it ends its count. */
  public interface Pass extends AutoCloseable {
    @Override
    void close();
  }

  private record Share(BitSet claimed, Set<Integer> draining) {}

  private final ShardKey key;
  private final SlotSpace space;
  private final LongSupplier nanoClock;
  private final long writeDeadlineNanos;
  private final AtomicIntegerArray running;
  private final CopyOnWriteArrayList<Consumer<IntPredicate>> acquired =
      new CopyOnWriteArrayList<>();
  private final CopyOnWriteArrayList<BiConsumer<String, NamespacedName>> stored =
      new CopyOnWriteArrayList<>();
  private volatile Share share = new Share(new BitSet(), Set.of());
  private volatile Predicate<HasMetadata> owning = object -> true;
  private volatile long renewedAtNanos;
  private volatile boolean renewedOnce;
  private volatile boolean closed;
  // Without sharding: whether the caches of an object's controller filled (a sharded gate opens by
  // its claims, after the start checked every cache), and whether anything was turned away by it.
  private final Predicate<HasMetadata> cachesFilled;
  private final AtomicBoolean turnedAway = new AtomicBoolean();

  ShardGate(ShardKey key, SlotSpace space, LongSupplier nanoClock, long writeDeadlineNanos) {
    this(key, space, nanoClock, writeDeadlineNanos, object -> true);
  }

  private ShardGate(
      ShardKey key,
      SlotSpace space,
      LongSupplier nanoClock,
      long writeDeadlineNanos,
      Predicate<HasMetadata> cachesFilled) {
    this.key = key;
    this.space = space;
    this.nanoClock = nanoClock;
    this.writeDeadlineNanos = writeDeadlineNanos;
    this.running = new AtomicIntegerArray(space == null ? 0 : space.count());
    this.cachesFilled = cachesFilled;
  }

  /**
   * The load of each slot: the given objects (the Kustomizations in the cache), weighed by the size
   * of their inventories.
   */
  public SlotLoads loadsOf(Stream<? extends HasMetadata> objects, ToIntFunction<HasMetadata> size) {
    SlotLoads.Builder loads = SlotLoads.builder(space);
    objects.forEach(o -> loads.addToSlot(slotOf(o), size.applyAsInt(o)));
    return loads.build();
  }

  /** The gate of a replica sharing the work; closed until its membership first claims slots. */
  public static ShardGate of(ShardOptions options, LongSupplier nanoClock) {
    return new ShardGate(
        options.key(), options.space(), nanoClock, options.writeDeadline().toNanos());
  }

  /** A gate that lets everything through: one engine, no sharding. */
  public static ShardGate everything() {
    return new ShardGate(null, null, System::nanoTime, 0);
  }

  /**
   * The gate of one engine, no sharding: it lets a reconcile through once the caches of its
   * object's controller filled ({@code cachesFilled}). The framework starts a controller's
   * reconciles when its informers listed or their sync timeout passed; in the second case they must
   * not act on an empty view of what they read, writing statuses that say a source or a dependency
   * is missing.
   */
  public static ShardGate afterCachesFilled(Predicate<HasMetadata> cachesFilled) {
    return new ShardGate(null, null, System::nanoTime, 0, cachesFilled);
  }

  /**
   * Whether a reconcile of {@code object} may start here at all: on a sharded gate always (its
   * slots decide whether it is this replica's), on an unsharded one once its controller's caches
   * filled.
   */
  public boolean started(HasMetadata object) {
    return key != null || admitted(object);
  }

  /**
   * The engine's start found every cache filled: what an unsharded gate turned away before (a
   * controller's informers filled after their sync timeout) is woken. A sharded gate opens by its
   * claims instead; nothing changes for it.
   */
  public void startChecked() {
    if (key == null && turnedAway.getAndSet(false)) {
      acquired.forEach(listener -> listener.accept(slot -> true));
    }
  }

  private boolean admitted(HasMetadata object) {
    if (cachesFilled.test(object)) {
      return true;
    }
    turnedAway.set(true);
    // Asked again after marking: caches that filled meanwhile may have been checked already, with
    // nothing marked for the check to wake.
    return cachesFilled.test(object);
  }

  /**
   * Lets a reconcile of {@code object} through when this replica owns it now and no other group of
   * replicas does, and labels it.
   */
  public Optional<Pass> enter(HasMetadata object) {
    Optional<Pass> pass = hold(object);
    if (pass.isPresent() && key != null) {
      boolean ours;
      try {
        ours = owning.test(object);
      } catch (RuntimeException e) {
        pass.get().close();
        throw e;
      }
      if (!ours) {
        pass.get().close();
        return Optional.empty();
      }
    }
    return pass;
  }

  /**
   * Lets work on {@code object} through when this replica owns it now, counted as running in its
   * slot until the pass is closed (so the slot is not handed over under it).
   */
  public Optional<Pass> hold(HasMetadata object) {
    if (key == null) {
      return admitted(object) ? Optional.of(() -> {}) : Optional.empty();
    }
    int slot = slotOf(object);
    // Counted before the ownership is read: a slot being released is either seen busy by the
    // membership (and kept) or seen withheld here (and refused), never neither.
    running.incrementAndGet(slot);
    if (!owns(slot)) {
      running.decrementAndGet(slot);
      return Optional.empty();
    }
    return Optional.of(() -> running.decrementAndGet(slot));
  }

  /** Whether a reconcile of {@code object} may start here now. */
  public boolean owns(HasMetadata object) {
    return key == null ? cachesFilled.test(object) : owns(slotOf(object));
  }

  /**
   * The fence asked before each write stage for an object: it goes through while its slot is
   * claimed here (draining or not: a reconcile that entered before a handoff finishes its writes)
   * and this replica renewed its Lease within the write deadline (two thirds of a Lease, by
   * default). No stage starts after that, and the waits inside a stage that started end by then
   * ({@link WriteFence#bound}); the API requests a stage already sent are not called back, so a
   * stage that writes many objects through a slow API server may still write past the deadline,
   * each request within the client's request timeout.
   */
  public WriteFence fence() {
    return new WriteFence() {
      @Override
      public void check(HasMetadata object) {
        if (!mayWrite(object)) {
          throw new WriteFence.Refused(
              object.getKind()
                  + " "
                  + object.getMetadata().getNamespace()
                  + "/"
                  + object.getMetadata().getName()
                  + " is no longer this replica's to write (its slot was given up, or the Lease"
                  + " was not renewed in time)");
        }
      }

      @Override
      public Duration bound(HasMetadata object, Duration timeout) {
        return key == null ? timeout : min(timeout, writeTimeLeft(nanoClock.getAsLong()));
      }
    };
  }

  /** How long writes may still go out after {@code atNanos} unless the Lease is renewed. */
  Duration writeTimeLeft(long atNanos) {
    if (!renewedOnce) {
      return Duration.ZERO;
    }
    return Duration.ofNanos(Math.max(0, writeDeadlineNanos - (atNanos - renewedAtNanos)));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** Whether a write for {@code object} may go out now (see {@link #fence()}). */
  boolean mayWrite(HasMetadata object) {
    return key == null
        ? cachesFilled.test(object)
        : freshAt(nanoClock.getAsLong()) && share.claimed().get(slotOf(object));
  }

  /**
   * Asks {@code marker} about each object a reconcile is let through for: it labels it, or answers
   * false when another group of replicas owns it.
   */
  void onOwning(Predicate<HasMetadata> marker) {
    this.owning = marker;
  }

  /** Tells {@code listener} which slots this replica just took, to reconcile what is in them. */
  public void onAcquired(Consumer<IntPredicate> listener) {
    acquired.add(listener);
  }

  /**
   * Wakes ({@code wake}) each object of {@code cached}, read when this replica takes slots, that
   * lies in the slots it just took: their new owner reconciles them at once.
   */
  public void wakeOnAcquired(
      Supplier<Stream<? extends HasMetadata>> cached, Consumer<NamespacedName> wake) {
    onAcquired(
        gained ->
            cached
                .get()
                .filter(object -> gained.test(slotOf(object)))
                .forEach(object -> wake.accept(NamespacedName.of(object))));
  }

  /**
   * Tells {@code listener} when a source's artifact was stored here with no new revision in its
   * status to wake anyone (its kind and name): a source another replica owns, fetched into this
   * replica's store, or one this replica owns stored again under the revision its status names
   * (after a restart emptied the store). The Kustomizations, HelmCharts and HelmReleases here that
   * wait for it go on.
   */
  public void onStoredHere(BiConsumer<String, NamespacedName> listener) {
    stored.add(listener);
  }

  /** A source's artifact was stored here without a new revision (see {@link #onStoredHere}). */
  public void storedHere(String kind, NamespacedName source) {
    stored.forEach(listener -> listener.accept(kind, source));
  }

  /** The slot {@code object} falls in (0 without sharding). */
  public int slotOf(HasMetadata object) {
    if (key == null) {
      return 0;
    }
    String value =
        key == ShardKey.NAMESPACE
            ? object.getMetadata().getNamespace()
            : object.getMetadata().getUid();
    return space.slotOf(key.hash(value == null ? "" : value));
  }

  boolean busy(int slot) {
    return running.get(slot) > 0;
  }

  boolean anyBusy() {
    for (int slot = 0; slot < running.length(); slot++) {
      if (running.get(slot) > 0) {
        return true;
      }
    }
    return false;
  }

  boolean sharded() {
    return key != null;
  }

  private boolean owns(int slot) {
    Share current = share;
    return !closed
        && freshAt(nanoClock.getAsLong())
        && current.claimed().get(slot)
        && !current.draining().contains(slot);
  }

  /**
   * Stops letting reconciles of {@code slots} through, before they are released; which of them
   * still run is asked after ({@link #busy}).
   */
  synchronized void withhold(Set<Integer> slots) {
    Share current = share;
    Set<Integer> draining = new HashSet<>(current.draining());
    draining.addAll(slots);
    share = new Share(current.claimed(), Set.copyOf(draining));
  }

  /** Whether the last renewal is recent enough to let work through at {@code atNanos}. */
  boolean freshAt(long atNanos) {
    return renewedOnce && atNanos - renewedAtNanos < writeDeadlineNanos;
  }

  /**
   * The Lease was renewed (at {@code atNanos}) with this claim; slots that opened (claimed and not
   * draining, all of them after a lapse) are announced, so what was turned away is reconciled.
   * Ignored once the gate is closed for good.
   */
  void renewed(long atNanos, BitSet claimed, Set<Integer> draining) {
    BitSet opened;
    synchronized (this) {
      if (closed) {
        return;
      }
      Share before = share;
      boolean wasFresh = freshAt(atNanos);
      share = new Share((BitSet) claimed.clone(), Set.copyOf(draining));
      renewedAtNanos = atNanos;
      renewedOnce = true;
      opened = open(share);
      if (wasFresh) {
        opened.andNot(open(before));
      }
    }
    if (!opened.isEmpty()) {
      acquired.forEach(listener -> listener.accept(opened::get));
    }
  }

  /**
   * Turns every new reconcile away from now on: the replica is stopping. The claim stays for the
   * writes of the reconciles still running, until the Lease lapses.
   */
  synchronized void close() {
    closed = true;
  }

  private static BitSet open(Share share) {
    BitSet open = (BitSet) share.claimed().clone();
    share.draining().forEach(open::clear);
    return open;
  }

  /** The slots claimed here now (for the Lease and the metrics). */
  BitSet claimed() {
    return (BitSet) share.claimed().clone();
  }
}
