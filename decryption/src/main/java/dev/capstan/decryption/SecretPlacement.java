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
 * still bound the apply). A patch may also mark a decrypted Secret for a controller that copies it
 * to other namespaces ({@link ReplicationMarks}): such a label or annotation is kept only as the
 * committed document declares it under the MAC or the Kustomization's commonMetadata sets it.
 */
public final class SecretPlacement {
  private final String namespace;
  private final Optional<String> targetNamespace;
  private final Map<String, String> commonLabels;
  private final Map<String, String> commonAnnotations;

  private SecretPlacement(
      String namespace,
      Optional<String> targetNamespace,
      Map<String, String> commonLabels,
      Map<String, String> commonAnnotations) {
    this.namespace = namespace;
    this.targetNamespace = targetNamespace;
    this.commonLabels = commonLabels;
    this.commonAnnotations = commonAnnotations;
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
            : Optional.of(targetNamespace),
        Map.of(),
        Map.of());
  }

  /**
   * This placement for a Kustomization whose {@code spec.commonMetadata} sets these labels and
   * annotations (null when unset): they may mark a decrypted Secret for replication, as they are
   * written in the cluster, not by a commit.
   */
  public SecretPlacement withCommonMetadata(
      Map<String, String> labels, Map<String, String> annotations) {
    return new SecretPlacement(
        namespace,
        targetNamespace,
        labels == null ? Map.of() : Map.copyOf(labels),
        annotations == null ? Map.of() : Map.copyOf(annotations));
  }

  /**
   * Checks an object decrypted from a SOPS-encrypted one.
   *
   * @param authored what its committed documents fixed under their MAC
   * @throws DecryptionException naming the object when it is not a v1 Secret, lands elsewhere or
   *     carries a replication mark its committed document does not declare
   */
  public void checkDecrypted(Map<String, Object> object, SopsDecryptor.Authored authored) {
    check(object, authored.namespace());
    checkMarks(
        object,
        authored,
        "a decrypted Secret keeps such a mark only as its encrypted document declares it under"
            + " its MAC, or as the Kustomization's commonMetadata sets it");
  }

  /**
   * Checks an object that holds what a decrypted secretGenerator input became: the generator's
   * namespace, labels and annotations come from the kustomization, which nothing authenticates.
   */
  public void checkGenerated(Map<String, Object> object) {
    check(object, Optional.empty());
    checkMarks(
        object,
        SopsDecryptor.Authored.NOTHING,
        "a Secret made from decrypted secretGenerator inputs keeps such a mark only as the"
            + " Kustomization's commonMetadata sets it (a SOPS-encrypted Secret may declare it in"
            + " its own document)");
  }

  private void checkMarks(Map<String, Object> object, SopsDecryptor.Authored authored, String why) {
    Map<?, ?> metadata = object.get("metadata") instanceof Map<?, ?> m ? m : Map.of();
    String what = "Secret/" + namespaceOf(object) + "/" + nameOf(object);
    Optional<String> label =
        ReplicationMarks.firstAdded(
            metadata.get("labels"), new ReplicationMarks.Allowed(authored.labels(), commonLabels));
    Optional<String> annotation =
        ReplicationMarks.firstAdded(
            metadata.get("annotations"),
            new ReplicationMarks.Allowed(authored.annotations(), commonAnnotations));
    label
        .map(key -> "label '" + key + "'")
        .or(() -> annotation.map(key -> "annotation '" + key + "'"))
        .ifPresent(
            mark -> {
              throw refused(
                  what
                      + ": "
                      + mark
                      + " would have a controller copy the decrypted Secret to other namespaces;"
                      + " "
                      + why);
            });
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
