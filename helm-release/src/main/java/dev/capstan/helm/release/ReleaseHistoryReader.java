package dev.capstan.helm.release;

import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a release's records and nothing else: what a caller that must not write (a preview) holds
 * instead of a {@link ReleaseStorage}, and what {@link ReleaseStorage#history} reads through.
 */
public final class ReleaseHistoryReader {
  private final SecretReader reader;
  private final RecordSecrets secrets = new RecordSecrets();

  public ReleaseHistoryReader(SecretReader reader) {
    this.reader = reader;
  }

  /**
   * Every record of release {@code name} in {@code namespace}.
   *
   * @throws ReleaseRecordException UNAVAILABLE when the list is refused; CORRUPT or TAMPERED when
   *     one of the records is, naming it (the history is then not trusted as a whole)
   */
  public ReleaseHistory history(String namespace, String name) throws ReleaseRecordException {
    List<Secret> found;
    try {
      found = reader.list(namespace, Map.of("owner", RecordSecrets.OWNER, "name", name));
    } catch (SecretUnavailable e) {
      throw new ReleaseRecordException(
          ReleaseRecordException.Reason.UNAVAILABLE, e.getMessage(), e);
    }
    List<ReleaseRecord> records = new ArrayList<>();
    for (Secret secret : found) {
      records.add(secrets.record(secret));
    }
    return new ReleaseHistory(namespace, name, records);
  }
}
