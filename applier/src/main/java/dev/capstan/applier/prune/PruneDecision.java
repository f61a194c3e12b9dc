package dev.capstan.applier.prune;

import dev.capstan.applier.common.CapstanMetadata;
import dev.capstan.applier.common.Owner;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether one stale object may be deleted, from its labels and annotations alone. A HelmRelease's
 * object annotated {@code helm.sh/resource-policy: keep} is kept, as {@code helm upgrade} and
 * {@code helm uninstall} keep one.
 */
final class PruneDecision {
  static final String RESOURCE_POLICY = "helm.sh/resource-policy";
  static final String KEEP = "keep";

  private PruneDecision() {}

  /** Empty when the object may be deleted; otherwise why it is kept. */
  static Optional<String> keepReason(
      Map<String, String> labels, Map<String, String> annotations, Owner owner) {
    if (annotations != null
        && CapstanMetadata.PRUNE_DISABLED.equals(annotations.get(CapstanMetadata.PRUNE))) {
      return Optional.of(
          "kept: annotated " + CapstanMetadata.PRUNE + ": " + CapstanMetadata.PRUNE_DISABLED);
    }
    if (Owner.HELM_RELEASE_GROUP.equals(owner.group())
        && annotations != null
        && annotations.get(RESOURCE_POLICY) != null
        && KEEP.equals(annotations.get(RESOURCE_POLICY).strip().toLowerCase(Locale.ROOT))) {
      return Optional.of("kept: annotated " + RESOURCE_POLICY + ": " + KEEP);
    }
    if (!owner.owns(labels, annotations)) {
      String name = labels == null ? null : labels.get(owner.nameLabel());
      String namespace = labels == null ? null : labels.get(owner.namespaceLabel());
      return Optional.of(
          name == null
              ? "kept: not labelled as owned by " + owner
              : "kept: owned by " + owner.kind() + " " + namespace + "/" + name + ", not " + owner);
    }
    return Optional.empty();
  }
}
