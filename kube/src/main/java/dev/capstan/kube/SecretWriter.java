package dev.capstan.kube;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;

/**
 * The one writer of whole Secrets the engine owns (Helm's release records): created only when the
 * name is free, replaced only at the resourceVersion that was read, so that a Secret another writer
 * made or changed in the meantime is never overwritten. Messages name the Secret as {@link
 * SecretReader}'s do, never a value.
 */
public final class SecretWriter {
  private final KubernetesClient client;

  public SecretWriter(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Creates {@code secret}, which names its namespace.
   *
   * @throws SecretWriteRefused with {@code conflict} when a Secret of that name exists
   */
  public Secret create(Secret secret) throws SecretWriteRefused {
    try {
      return client.secrets().resource(secret).create();
    } catch (KubernetesClientException e) {
      throw refused("create", secret, e);
    }
  }

  /**
   * Replaces {@code secret}, whose metadata carries the resourceVersion it was read at.
   *
   * @throws SecretWriteRefused with {@code conflict} when the Secret changed since it was read
   */
  public Secret replace(Secret secret) throws SecretWriteRefused {
    if (secret.getMetadata().getResourceVersion() == null) {
      throw new IllegalArgumentException("a Secret is replaced at the resourceVersion it was read");
    }
    try {
      return client.secrets().resource(secret).update();
    } catch (KubernetesClientException e) {
      throw refused("replace", secret, e);
    }
  }

  /**
   * Deletes the Secret {@code namespace/name}; one already gone is no error.
   *
   * @throws SecretWriteRefused when the API server refuses the delete or cannot be reached
   */
  public void delete(String namespace, String name) throws SecretWriteRefused {
    try {
      client.secrets().inNamespace(namespace).withName(name).delete();
    } catch (KubernetesClientException e) {
      throw new SecretWriteRefused(
          false,
          "cannot delete " + SecretUnavailable.where(namespace, name) + ": " + ApiErrors.refusal(e),
          e);
    }
  }

  private static SecretWriteRefused refused(
      String verb, Secret secret, KubernetesClientException e) {
    String where =
        SecretUnavailable.where(
            secret.getMetadata().getNamespace(), secret.getMetadata().getName());
    boolean conflict = e.getCode() == HttpURLConnection.HTTP_CONFLICT;
    return new SecretWriteRefused(
        conflict, "cannot " + verb + " " + where + ": " + ApiErrors.refusal(e), e);
  }
}
