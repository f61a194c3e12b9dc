package dev.capstan.decryption;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The labels and annotations by which controllers that replicate Secrets are told to copy one to
 * other namespaces, or to let other namespaces copy it: emberstack's reflector ({@code
 * reflector.v1.k8s.emberstack.com/reflection-allowed}, {@code …/reflection-auto-enabled}),
 * mittwald's kubernetes-replicator ({@code replicator.v1.mittwald.de/replicate-to}, {@code
 * …/replication-allowed}) and AppsCode's kubed and config-syncer ({@code kubed.appscode.com/sync}).
 * A patch of the kustomization can add one to a decrypted Secret, and the controller then writes
 * the decrypted values where the Kustomization cannot: so on a decrypted Secret these keys are kept
 * only with the value its encrypted document declares under the MAC (written by whoever holds the
 * key) or the Kustomization's commonMetadata sets (written in the cluster, not in Git). The list is
 * of known controllers, by the prefix of their keys: another controller that copies Secrets by its
 * own marks is not known here.
 */
final class ReplicationMarks {
  static final List<String> PREFIXES =
      List.of(
          "reflector.v1.k8s.emberstack.com/", "replicator.v1.mittwald.de/", "kubed.appscode.com/");

  /** Where a mark may come from: the committed document, or the Kustomization's spec. */
  record Allowed(Map<String, String> authored, Map<String, String> common) {
    boolean allows(String key, Object value) {
      return value instanceof String text
          && (text.equals(authored.get(key)) || text.equals(common.get(key)));
    }
  }

  private ReplicationMarks() {}

  static boolean replicates(String key) {
    return PREFIXES.stream().anyMatch(key::startsWith);
  }

  /**
   * The first key of {@code marks} (an object's labels or annotations) that tells a replication
   * controller to act and that {@code allowed} does not allow with that value.
   */
  static Optional<String> firstAdded(Object marks, Allowed allowed) {
    if (!(marks instanceof Map<?, ?> map)) {
      return Optional.empty();
    }
    return map.entrySet().stream()
        .filter(e -> e.getKey() instanceof String key && replicates(key))
        .filter(e -> !allowed.allows((String) e.getKey(), e.getValue()))
        .map(e -> (String) e.getKey())
        .sorted()
        .findFirst();
  }
}
