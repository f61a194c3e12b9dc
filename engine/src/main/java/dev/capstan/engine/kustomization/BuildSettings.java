package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.CommonMetadata;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.kustomize.Patch;
import dev.capstan.api.kustomize.PostBuild;
import dev.capstan.applier.kustomize.BuildOptions;
import dev.capstan.applier.kustomize.ImageOverride;
import dev.capstan.applier.kustomize.KustomizePatch;
import dev.capstan.applier.kustomize.PatchSelector;
import dev.capstan.applier.kustomize.PostBuildVariables;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.kube.SecretEntries;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a Kustomization's spec into the applier's build options, reading the ConfigMaps and Secrets
 * of {@code postBuild.substituteFrom} (their data only, as Flux reads them) with the
 * Kustomization's own client.
 */
final class BuildSettings {
  private BuildSettings() {}

  /**
   * @throws StageFailure (transient) when a {@code substituteFrom} source that is not optional does
   *     not exist: it may be created later
   */
  static BuildOptions of(KustomizationSpec spec, String namespace, KubernetesClient client) {
    return of(spec, namespace, client, PipelineSettings.DEFAULTS.strictSubstitutions());
  }

  /**
   * @param strict a postBuild variable with neither a value nor a default fails the build
   * @throws StageFailure (transient) when a {@code substituteFrom} source that is not optional does
   *     not exist: it may be created later
   */
  static BuildOptions of(
      KustomizationSpec spec, String namespace, KubernetesClient client, boolean strict) {
    CommonMetadata common = spec.commonMetadata();
    BuildOptions options =
        BuildOptions.none()
            .withTargetNamespace(spec.targetNamespace())
            .withNameAffixes(spec.namePrefix(), spec.nameSuffix())
            .withCommonMetadata(
                common == null ? null : common.labels(),
                common == null ? null : common.annotations())
            .withPatches(patches(spec.patches()))
            .withImages(
                spec.images() == null
                    ? null
                    : spec.images().stream()
                        .map(i -> new ImageOverride(i.name(), i.newName(), i.newTag(), i.digest()))
                        .toList())
            .withComponents(spec.components(), spec.ignoresMissingComponents())
            .withBuildMetadata(spec.buildMetadataOptions().stream().map(Enum::name).toList());
    PostBuild post = spec.postBuild();
    if (post == null) {
      return options;
    }
    List<Map<String, String>> sources = new ArrayList<>();
    for (PostBuild.SubstituteReference reference :
        Optional.ofNullable(post.substituteFrom()).orElse(List.of())) {
      read(client, namespace, reference).ifPresent(sources::add);
    }
    return options.withPostBuild(
        new PostBuildVariables(post.substitute(), sources, post.substitutesAlways(), strict));
  }

  private static List<KustomizePatch> patches(List<Patch> patches) {
    if (patches == null) {
      return null;
    }
    return patches.stream().map(p -> new KustomizePatch(p.patch(), selector(p.target()))).toList();
  }

  /** The applier's form of a target selector; null for null. */
  static PatchSelector selector(Patch.Selector target) {
    return target == null
        ? null
        : new PatchSelector(
            target.group(),
            target.version(),
            target.kind(),
            target.name(),
            target.namespace(),
            target.labelSelector(),
            target.annotationSelector());
  }

  /** The variables of one source; empty when an optional source does not exist. */
  private static Optional<Map<String, String>> read(
      KubernetesClient client, String namespace, PostBuild.SubstituteReference reference) {
    Optional<Map<String, String>> values;
    if (reference.kind() == PostBuild.SubstituteReference.Kind.Secret) {
      values = secretValues(client, namespace, reference);
    } else {
      ConfigMap map = client.configMaps().inNamespace(namespace).withName(reference.name()).get();
      values =
          Optional.ofNullable(map)
              .map(m -> m.getData() == null ? Map.<String, String>of() : m.getData());
    }
    if (values.isEmpty() && !Boolean.TRUE.equals(reference.optional())) {
      throw substituteFailure(reference, "not found in namespace '" + namespace + "'");
    }
    return values;
  }

  /** Flux's wording of a substitution source that cannot be read. */
  private static StageFailure substituteFailure(
      PostBuild.SubstituteReference reference, String what) {
    return StageFailure.transientFailure(
        Reason.BUILD_FAILED,
        "substitute from '" + reference.kind() + "/" + reference.name() + "' error: " + what);
  }

  /** A Secret's entries as text; empty when it does not exist. */
  private static Optional<Map<String, String>> secretValues(
      KubernetesClient client, String namespace, PostBuild.SubstituteReference reference) {
    SecretEntries secret;
    try {
      secret = new SecretReader(client).read(namespace, reference.name());
    } catch (SecretUnavailable e) {
      if (e.kind() == SecretUnavailable.Kind.NOT_FOUND) {
        return Optional.empty();
      }
      throw substituteFailure(reference, e.getMessage());
    }
    Map<String, String> values = new HashMap<>();
    secret.values().forEach((k, v) -> values.put(k, new String(v, StandardCharsets.UTF_8)));
    return Optional.of(values);
  }
}
