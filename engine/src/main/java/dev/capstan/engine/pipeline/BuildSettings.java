package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.CommonMetadata;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.kustomize.Patch;
import dev.capstan.api.kustomize.PostBuild;
import dev.capstan.applier.build.BuildOptions;
import dev.capstan.applier.build.ImageOverride;
import dev.capstan.applier.build.KustomizePatch;
import dev.capstan.applier.build.PatchSelector;
import dev.capstan.applier.build.SubstituteReference;
import dev.capstan.applier.build.SubstitutionValues;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Turns a Kustomization's spec into the applier's build options. */
final class BuildSettings {
  private BuildSettings() {}

  static BuildOptions of(KustomizationSpec spec, String namespace, KubernetesClient client) {
    CommonMetadata common = spec.commonMetadata();
    BuildOptions options =
        BuildOptions.none()
            .withTargetNamespace(spec.targetNamespace())
            .withNamePrefix(spec.namePrefix())
            .withNameSuffix(spec.nameSuffix())
            .withCommonMetadata(
                common == null ? null : common.labels(), common == null ? null : common.annotations())
            .withPatches(patches(spec.patches()))
            .withImages(
                spec.images() == null
                    ? null
                    : spec.images().stream()
                        .map(i -> new ImageOverride(i.name(), i.newName(), i.newTag(), i.digest()))
                        .toList());
    PostBuild post = spec.postBuild();
    if (post == null) {
      return options;
    }
    List<SubstituteReference> from =
        post.substituteFrom() == null
            ? List.of()
            : post.substituteFrom().stream()
                .map(r -> new SubstituteReference(
                    r.kind() == PostBuild.SubstituteReference.Kind.Secret
                        ? SubstituteReference.Kind.SECRET
                        : SubstituteReference.Kind.CONFIG_MAP,
                    r.name(),
                    Boolean.TRUE.equals(r.optional())))
                .toList();
    return options.withPostBuild(post.substitute(), from, values(client, namespace));
  }

  private static List<KustomizePatch> patches(List<Patch> patches) {
    if (patches == null) {
      return null;
    }
    return patches.stream()
        .map(p -> new KustomizePatch(p.patch(), p.target() == null ? null : new PatchSelector(
            p.target().group(), p.target().version(), p.target().kind(), p.target().name(),
            p.target().namespace(), p.target().labelSelector(), p.target().annotationSelector())))
        .toList();
  }

  /** Variables from ConfigMaps and Secrets in the Kustomization's namespace; values never logged. */
  private static SubstitutionValues values(KubernetesClient client, String namespace) {
    return reference -> {
      if (reference.kind() == SubstituteReference.Kind.CONFIG_MAP) {
        ConfigMap map = client.configMaps().inNamespace(namespace).withName(reference.name()).get();
        return Optional.ofNullable(map).map(m -> m.getData() == null ? Map.<String, String>of() : m.getData());
      }
      Secret secret = client.secrets().inNamespace(namespace).withName(reference.name()).get();
      return Optional.ofNullable(secret).map(BuildSettings::decoded);
    };
  }

  private static Map<String, String> decoded(Secret secret) {
    Map<String, String> values = new HashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) ->
          values.put(k, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
    }
    if (secret.getStringData() != null) {
      values.putAll(secret.getStringData());
    }
    return values;
  }
}
