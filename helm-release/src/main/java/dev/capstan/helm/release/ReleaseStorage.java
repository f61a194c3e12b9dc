package dev.capstan.helm.release;

import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretWriteRefused;
import dev.capstan.kube.SecretWriter;
import io.fabric8.kubernetes.api.model.Secret;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Helm's release records, kept as Helm's Secret driver keeps them, so that {@code helm list},
 * {@code helm history}, {@code helm get} and {@code helm rollback} see the releases this engine
 * makes, and this engine continues the releases {@code helm} or Flux made. A record is written once
 * under a free name and changed only at the resourceVersion it was read at; a corrupt or tampered
 * record is refused with its Secret named, never overwritten.
 */
public final class ReleaseStorage {
  private final ReleaseHistoryReader histories;
  private final SecretWriter writer;
  private final Clock clock;
  private final RecordSecrets secrets = new RecordSecrets();

  public ReleaseStorage(SecretReader reader, SecretWriter writer, Clock clock) {
    this.histories = new ReleaseHistoryReader(reader);
    this.writer = writer;
    this.clock = clock;
  }

  /**
   * Every record of release {@code name} in {@code namespace}.
   *
   * @throws ReleaseRecordException UNAVAILABLE when the list is refused; CORRUPT or TAMPERED when
   *     one of the records is, naming it (the history is then not trusted as a whole)
   */
  public ReleaseHistory history(String namespace, String name) throws ReleaseRecordException {
    return histories.history(namespace, name);
  }

  /**
   * Stores {@code release} as a new record of its name and version in {@code namespace}.
   *
   * @throws ReleaseRecordException CONFLICT when that version's record exists (it is left as it
   *     is), UNAVAILABLE when the API server refuses the write
   */
  public ReleaseRecord create(String namespace, Release release) throws ReleaseRecordException {
    Secret secret = secrets.secret(namespace, release, Map.of(), clock.instant());
    try {
      return secrets.record(writer.create(secret));
    } catch (SecretWriteRefused e) {
      throw refused(e);
    }
  }

  /**
   * Replaces the release of {@code record} with {@code release} (the same name and version), at the
   * resourceVersion the record was read at.
   *
   * @throws ReleaseRecordException CONFLICT when the record changed since it was read, UNAVAILABLE
   *     when the API server refuses the write
   */
  public ReleaseRecord update(ReleaseRecord record, Release release) throws ReleaseRecordException {
    if (!release.name().equals(record.release().name())
        || release.version() != record.release().version()) {
      throw new IllegalArgumentException(
          record.where() + " holds another release than " + release.name());
    }
    Secret secret = secrets.secret(record.namespace(), release, record.labels(), clock.instant());
    secret.getMetadata().setResourceVersion(record.resourceVersion());
    try {
      return secrets.record(writer.replace(secret));
    } catch (SecretWriteRefused e) {
      throw refused(e);
    }
  }

  /** Marks {@code record} superseded, as Helm does to the deployed release an upgrade replaces. */
  public ReleaseRecord supersede(ReleaseRecord record) throws ReleaseRecordException {
    return update(record, record.release().withStatus(ReleaseStatus.SUPERSEDED));
  }

  /**
   * Deletes the records {@link ReleaseHistory#beyond} {@code keep}: the oldest, never the last
   * deployed one, as Helm prunes to its max history (before it creates a new version, Helm keeps
   * {@code maxHistory - 1}).
   *
   * @return the records deleted
   * @throws ReleaseRecordException UNAVAILABLE when a delete is refused
   */
  public List<ReleaseRecord> prune(ReleaseHistory history, int keep) throws ReleaseRecordException {
    List<ReleaseRecord> prunable = history.beyond(keep);
    for (ReleaseRecord record : prunable) {
      try {
        writer.delete(record.namespace(), record.secretName());
      } catch (SecretWriteRefused e) {
        throw refused(e);
      }
    }
    return prunable;
  }

  /**
   * Deletes {@code record}, as {@code helm uninstall} deletes a release's records unless asked to
   * keep its history.
   *
   * @throws ReleaseRecordException UNAVAILABLE when the delete is refused
   */
  public void delete(ReleaseRecord record) throws ReleaseRecordException {
    try {
      writer.delete(record.namespace(), record.secretName());
    } catch (SecretWriteRefused e) {
      throw refused(e);
    }
  }

  private static ReleaseRecordException refused(SecretWriteRefused e) {
    return new ReleaseRecordException(
        e.conflict()
            ? ReleaseRecordException.Reason.CONFLICT
            : ReleaseRecordException.Reason.UNAVAILABLE,
        e.getMessage(),
        e);
  }
}
