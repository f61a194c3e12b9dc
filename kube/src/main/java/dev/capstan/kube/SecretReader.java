package dev.capstan.kube;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;

/**
 * The one reader of Secrets from the API server: every module that needs a Secret's entries (source
 * credentials and TLS, decryption keys, kubeconfigs, webhook tokens) reads them here, so that the
 * decoding and the wording of "not found" and "refused" are the same everywhere.
 */
public final class SecretReader {
  private final KubernetesClient client;

  public SecretReader(KubernetesClient client) {
    this.client = client;
  }

  /**
   * The entries of the Secret {@code namespace/name}.
   *
   * @throws SecretUnavailable when it does not exist, the API server refuses the read or cannot be
   *     reached, or an entry is not Base64
   */
  public SecretEntries read(String namespace, String name) throws SecretUnavailable {
    return SecretEntries.of(secret(namespace, name));
  }

  /**
   * The Secret {@code namespace/name} itself, for a caller that also needs its metadata (a cache
   * kept while its resourceVersion stays the same); its entries are {@link SecretEntries#of}.
   *
   * @throws SecretUnavailable when it does not exist, or the API server refuses the read or cannot
   *     be reached
   */
  public Secret secret(String namespace, String name) throws SecretUnavailable {
    Secret secret;
    try {
      secret = client.secrets().inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw new SecretUnavailable(
          SecretUnavailable.Kind.REFUSED,
          "cannot read " + SecretUnavailable.where(namespace, name) + ": " + ApiErrors.refusal(e),
          e);
    }
    if (secret == null) {
      throw new SecretUnavailable(
          SecretUnavailable.Kind.NOT_FOUND,
          SecretUnavailable.where(namespace, name) + " not found");
    }
    return secret;
  }

  /**
   * The Secrets of {@code namespace} that carry every one of {@code labels} (Helm's release
   * records, found by their owner and release name), in the API server's order; their entries are
   * {@link SecretEntries#of}.
   *
   * @throws SecretUnavailable ({@link SecretUnavailable.Kind#REFUSED}) when the API server refuses
   *     the list or cannot be reached
   */
  public List<Secret> list(String namespace, Map<String, String> labels) throws SecretUnavailable {
    try {
      return client.secrets().inNamespace(namespace).withLabels(labels).list().getItems();
    } catch (KubernetesClientException e) {
      throw new SecretUnavailable(
          SecretUnavailable.Kind.REFUSED,
          "cannot list the Secrets of namespace '"
              + namespace
              + "' labelled "
              + labels
              + ": "
              + ApiErrors.refusal(e),
          e);
    }
  }
}
