package dev.capstan.engine.kustomization;

import dev.capstan.decryption.DecryptionException;
import dev.capstan.decryption.DecryptionKeys;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.kube.SecretEntries;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The age keys of the engine's {@code --sops-age-secret}, as Flux's flag: a Secret of the engine's
 * namespace whose entries ending in {@code .agekey} decrypt for every Kustomization that sets
 * {@code spec.decryption} without a {@code secretRef}. Read with the engine's own client on every
 * use (a rotated key is seen at the next reconcile); other entries are ignored.
 */
public interface GlobalAgeKeys {

  /** No engine-wide key: a Kustomization without secretRef decrypts with no key at all. */
  GlobalAgeKeys NONE = Optional::empty;

  /**
   * The keys, or empty when the engine has none.
   *
   * @throws StageFailure (transient, DecryptionFailed) when the Secret is missing, cannot be read,
   *     or holds an entry that is not an age identity
   */
  Optional<DecryptionKeys> keys();

  /** The keys of the Secret {@code secret}, read with {@code client}. */
  static GlobalAgeKeys fromSecret(KubernetesClient client, NamespacedName secret) {
    return () -> Optional.of(read(client, secret));
  }

  private static DecryptionKeys read(KubernetesClient client, NamespacedName name) {
    SecretEntries secret;
    try {
      secret = new SecretReader(client).read(name.namespace(), name.name());
    } catch (SecretUnavailable e) {
      throw StageFailure.transientFailure(
          Reason.DECRYPTION_FAILED,
          "the engine's SOPS age keys (--sops-age-secret): " + e.getMessage());
    }
    Map<String, byte[]> ageEntries = new HashMap<>(secret.values());
    ageEntries.keySet().removeIf(key -> !key.endsWith(".agekey"));
    try {
      return DecryptionKeys.fromSecretData(ageEntries);
    } catch (DecryptionException e) {
      throw StageFailure.transientFailure(
          Reason.DECRYPTION_FAILED,
          "decryption failed: " + e.in("the engine's SOPS age Secret '" + name + "'").getMessage());
    }
  }
}
