package dev.capstan.engine.pipeline;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How many fetches (a source's fetch, an ExternalArtifact's download) one namespace may run at
 * once. A fetch holds a reconcile thread, which every tenant shares, until it ends or its timeout
 * passes, and a tenant chooses both its server's pace and its timeout: without a bound per
 * namespace, ten sources of one tenant pointed at a server that answers a byte at a time would hold
 * every thread for as long as their timeouts say. A fetch that finds no slot does not wait for one
 * (that would hold the thread too); its reconcile comes back a little later.
 */
public final class FetchSlots {
  private final int perNamespace;
  private final Map<String, Integer> running = new HashMap<>();

  /**
   * @param perNamespace fetches one namespace may run at once, at least 1
   */
  public FetchSlots(int perNamespace) {
    if (perNamespace < 1) {
      throw new IllegalArgumentException("a namespace needs at least one fetch slot");
    }
    this.perNamespace = perNamespace;
  }

  /** Half the reconcile threads: a namespace's fetches leave the other half to everyone else. */
  public static FetchSlots forThreads(int reconcileThreads) {
    return new FetchSlots(Math.max(1, reconcileThreads / 2));
  }

  int perNamespace() {
    return perNamespace;
  }

  /** A slot of {@code namespace}, held until closed; empty when all of its slots are taken. */
  synchronized Optional<Slot> tryTake(String namespace) {
    int taken = running.getOrDefault(namespace, 0);
    if (taken >= perNamespace) {
      return Optional.empty();
    }
    running.put(namespace, taken + 1);
    return Optional.of(new Slot(namespace));
  }

  private synchronized void give(String namespace) {
    running.computeIfPresent(namespace, (k, taken) -> taken <= 1 ? null : taken - 1);
  }

  /** One fetch's slot; closing it twice gives it back once. */
  final class Slot implements AutoCloseable {
    private final String namespace;
    private boolean open = true;

    private Slot(String namespace) {
      this.namespace = namespace;
    }

    @Override
    public void close() {
      synchronized (this) {
        if (!open) {
          return;
        }
        open = false;
      }
      give(namespace);
    }
  }
}
