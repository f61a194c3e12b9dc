package dev.capstan.applier.build;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Snapshots of artifacts kept for the next build of the same artifact (the Kustomizations of one
 * source share it), by path and digest; the least recently used are dropped past a byte budget.
 */
final class ArtifactSnapshots {
  private final long maxSnapshotBytes;
  private final long budgetBytes;
  private final Map<Key, ArtifactSnapshot> cache = new LinkedHashMap<>(16, 0.75f, true);
  private long cachedBytes;

  private record Key(Path source, String digest) {}

  ArtifactSnapshots(long maxSnapshotBytes, long budgetBytes) {
    this.maxSnapshotBytes = maxSnapshotBytes;
    this.budgetBytes = budgetBytes;
  }

  /**
   * A snapshot of {@code source}, leased: {@link ArtifactSnapshot#release()} it after the build.
   * With a null digest (a directory that may change) it is copied afresh and not kept.
   */
  ArtifactSnapshot lease(Path source, String digest) {
    if (digest == null) {
      ArtifactSnapshot once = ArtifactSnapshot.copyOf(source, maxSnapshotBytes);
      once.lease();
      once.retire();
      return once;
    }
    Key key = new Key(source.toAbsolutePath().normalize(), digest);
    synchronized (this) {
      ArtifactSnapshot cached = cache.get(key);
      if (cached != null) {
        cached.lease();
        return cached;
      }
    }
    // Copied outside the lock: builds of other artifacts do not wait for this one.
    ArtifactSnapshot fresh = ArtifactSnapshot.copyOf(source, maxSnapshotBytes);
    synchronized (this) {
      ArtifactSnapshot cached = cache.get(key);
      if (cached != null) {
        fresh.retire();
        cached.lease();
        return cached;
      }
      fresh.lease();
      if (fresh.bytes() > budgetBytes) {
        fresh.retire();
        return fresh;
      }
      cache.put(key, fresh);
      cachedBytes += fresh.bytes();
      evictPast(fresh);
      return fresh;
    }
  }

  private void evictPast(ArtifactSnapshot keep) {
    Iterator<ArtifactSnapshot> eldest = cache.values().iterator();
    while (cachedBytes > budgetBytes && eldest.hasNext()) {
      ArtifactSnapshot snapshot = eldest.next();
      if (snapshot != keep) {
        eldest.remove();
        cachedBytes -= snapshot.bytes();
        snapshot.retire();
      }
    }
  }

  synchronized void clear() {
    cache.values().forEach(ArtifactSnapshot::retire);
    cache.clear();
    cachedBytes = 0;
  }
}
