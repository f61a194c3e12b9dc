package dev.capstan.decryption;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where decrypted values may be applied: only in a {@code v1} Secret, in a namespace the
 * Kustomization writes to (its own, its {@code targetNamespace}) or, for an encrypted object, the
 * namespace its committed document names under the MAC. The MAC covers the committed file, not what
 * the build made of it: a patch of the kustomization may turn an encrypted Secret into a ConfigMap,
 * or move it (or a generated Secret) to a namespace whose readers are not the Secret's. Which
 * identity applies, and so what RBAC allows, is decided elsewhere (a service account's permissions
 * still bound the apply).
 */
public final class SecretPlacement {
  private final String namespace;
  private final Optional<String> targetNamespace;

  private SecretPlacement(String namespace, Optional<String> targetNamespace) {
    this.namespace = namespace;
    this.targetNamespace = targetNamespace;
  }

  /**
   * @param namespace the Kustomization's namespace
   * @param targetNamespace its {@code spec.targetNamespace}, null or empty when unset
   */
  public static SecretPlacement of(String namespace, String targetNamespace) {
    return new SecretPlacement(
        namespace,
        targetNamespace == null || targetNamespace.isEmpty()
            ? Optional.empty()
            : Optional.of(targetNamespace));
  }

  /**
   * Checks an object decrypted from a SOPS-encrypted one.
   *
   * @param authored what its committed documents fixed under their MAC
   * @throws DecryptionException naming the object when it is not a v1 Secret or lands elsewhere
   */
  public void checkDecrypted(Map<String, Object> object, SopsDecryptor.Authored authored) {
    check(object, authored.namespace());
  }

  /**
   * Checks an object that holds what a decrypted secretGenerator input became: the generator's
   * namespace comes from the kustomization, which nothing authenticates.
   */
  public void checkGenerated(Map<String, Object> object) {
    check(object, Optional.empty());
  }

  private void check(Map<String, Object> object, Optional<String> authored) {
    String apiVersion = String.valueOf(object.get("apiVersion"));
    String kind = String.valueOf(object.get("kind"));
    String lands = namespaceOf(object);
    String what = kind + "/" + lands + "/" + nameOf(object);
    if (!"v1".equals(apiVersion) || !"Secret".equals(kind)) {
      throw refused(
          what
              + ": decrypted values are applied only in a Secret (apiVersion v1), not in "
              + kind
              + " ("
              + apiVersion
              + ")");
    }
    List<String> allowed = allowed(authored);
    if (!allowed.contains(lands)) {
      throw refused(
          what
              + ": decrypted values are applied only in "
              + String.join(" or ", describe(authored))
              + ", not in namespace '"
              + lands
              + "'");
    }
  }

  private List<String> allowed(Optional<String> authored) {
    Set<String> allowed = new LinkedHashSet<>();
    allowed.add(namespace);
    targetNamespace.ifPresent(allowed::add);
    authored.ifPresent(allowed::add);
    return List.copyOf(allowed);
  }

  private List<String> describe(Optional<String> authored) {
    List<String> out = new ArrayList<>();
    out.add("the Kustomization's namespace '" + namespace + "'");
    targetNamespace.ifPresent(t -> out.add("its targetNamespace '" + t + "'"));
    authored.ifPresent(a -> out.add("'" + a + "', the namespace of its committed document"));
    return out;
  }

  /** Where the object is applied: its own namespace, else the apply's default. */
  private String namespaceOf(Map<String, Object> object) {
    if (object.get("metadata") instanceof Map<?, ?> metadata
        && metadata.get("namespace") instanceof String ns
        && !ns.isEmpty()) {
      return ns;
    }
    return targetNamespace.orElse(namespace);
  }

  private static String nameOf(Map<String, Object> object) {
    return object.get("metadata") instanceof Map<?, ?> metadata
        ? String.valueOf(metadata.get("name"))
        : "null";
  }

  private static DecryptionException refused(String message) {
    return new DecryptionException(DecryptionException.Problem.MALFORMED, message);
  }
}
