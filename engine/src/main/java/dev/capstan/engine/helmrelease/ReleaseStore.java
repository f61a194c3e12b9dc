package dev.capstan.engine.helmrelease;

import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseRecordException;
import dev.capstan.helm.release.ReleaseStorage;
import java.util.List;

/** Helm's release records, as the HelmRelease pipeline reads and writes them. */
public interface ReleaseStore {

  ReleaseHistory history(String namespace, String name) throws ReleaseRecordException;

  ReleaseRecord create(String namespace, Release release) throws ReleaseRecordException;

  ReleaseRecord update(ReleaseRecord record, Release release) throws ReleaseRecordException;

  List<ReleaseRecord> prune(ReleaseHistory history, int keep) throws ReleaseRecordException;

  void delete(ReleaseRecord record) throws ReleaseRecordException;

  /**
   * Creates {@code next}, the release's next version, in {@code namespace} after pruning {@code
   * history} to leave room for it: at most {@code maxHistory} records, none pruned when 0.
   */
  default ReleaseRecord createNext(
      String namespace, ReleaseHistory history, int maxHistory, Release next)
      throws ReleaseRecordException {
    if (maxHistory > 0) {
      prune(history, maxHistory - 1);
    }
    return create(namespace, next);
  }

  /** The records in the cluster, in Helm's own format. */
  static ReleaseStore of(ReleaseStorage storage) {
    return new ReleaseStore() {
      @Override
      public ReleaseHistory history(String namespace, String name) throws ReleaseRecordException {
        return storage.history(namespace, name);
      }

      @Override
      public ReleaseRecord create(String namespace, Release release) throws ReleaseRecordException {
        return storage.create(namespace, release);
      }

      @Override
      public ReleaseRecord update(ReleaseRecord record, Release release)
          throws ReleaseRecordException {
        return storage.update(record, release);
      }

      @Override
      public List<ReleaseRecord> prune(ReleaseHistory history, int keep)
          throws ReleaseRecordException {
        return storage.prune(history, keep);
      }

      @Override
      public void delete(ReleaseRecord record) throws ReleaseRecordException {
        storage.delete(record);
      }
    };
  }
}
