package dev.capstan.engine.source;

import dev.capstan.api.common.LocalObjectReference;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import dev.capstan.source.core.FailureReason;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;

/**
 * The Secrets a source's spec names, read from the source's namespace with the client given (the
 * engine's for the source stage, a user's for the view). Every kind of source reads its Secrets
 * here, so a missing one is worded the same way for each: the spec field, then the reader's words.
 */
final class SpecSecrets {

  private final SecretReader reader;
  private final String namespace;

  SpecSecrets(KubernetesClient client, HasMetadata source) {
    this.reader = new SecretReader(client);
    this.namespace = source.getMetadata().getNamespace();
  }

  /**
   * The entries of the Secret {@code name} that {@code field} names.
   *
   * @throws SourceInputs.Unavailable with {@code reason} when none is named, it does not exist or
   *     an entry is not Base64
   * @throws KubernetesClientException when the API server refuses the read or cannot be reached
   */
  Map<String, byte[]> read(String name, String field, FailureReason reason) {
    try {
      if (name == null) {
        throw new SourceInputs.Unavailable(reason, field + ": no Secret named");
      }
      return reader.read(namespace, name).values();
    } catch (SecretUnavailable e) {
      if (e.getCause() instanceof KubernetesClientException refused) {
        // as the API server answered: its status says forbidden or unreachable
        throw refused;
      }
      // Not terminal: the Secret may be created or mended later.
      throw new SourceInputs.Unavailable(reason, field + ": " + e.getMessage());
    }
  }

  /** As {@link #read}, for a reference the spec may leave out: null when it does. */
  Map<String, byte[]> readIfNamed(LocalObjectReference ref, String field, FailureReason reason) {
    return ref == null ? null : read(ref.name(), field, reason);
  }
}
