package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.applier.common.Owner;
import dev.capstan.helm.release.Release;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rules of continuing a release another client made ({@code helm install}, Flux's
 * helm-controller, or {@code helm upgrade} by hand over Capstan's own), as {@code helm upgrade}
 * continues one: the objects of the release it replaces are the baseline, what the new render no
 * longer has is deleted, and an object the release creates that exists already is taken only when
 * its ownership metadata names the release, or when taking ownership is allowed (Flux's {@code
 * disableTakeOwnership} false, the default). Pure.
 */
final class ReleaseAdoption {
  private ReleaseAdoption() {}

  /**
   * The release an install or upgrade replaces, as {@code helm upgrade} compares with it.
   *
   * @param refs the objects of its manifest, in the form of {@link #refs}
   * @param foreign whether this HelmRelease did not write it: what it drops is pruned beside what
   *     the status's inventory holds
   */
  record Baseline(Set<ObjectRef> refs, boolean foreign) {
    static final Baseline NONE = new Baseline(Set.of(), false);

    Baseline {
      refs = Set.copyOf(refs);
    }
  }

  /**
   * The baseline of a release whose last deployed record is {@code deployed} (none: {@link
   * Baseline#NONE}), the objects of its manifest named in the record's namespace when they name
   * none: the release namespace Helm put them in, whatever the HelmRelease's target is now.
   *
   * @throws IllegalArgumentException when the manifest is not objects, never quoting it
   */
  static Baseline baseline(Optional<Release> deployed, HelmReleaseStatus status) {
    if (deployed.isEmpty()) {
      return Baseline.NONE;
    }
    String manifest = deployed.get().manifest() == null ? "" : deployed.get().manifest();
    return new Baseline(
        refs(ManifestObjects.parse(manifest, "it"), deployed.get().namespace()),
        foreign(deployed.get(), status));
  }

  /**
   * Whether {@code deployed} is a record this HelmRelease did not write: its status records no
   * snapshot of that release and version. A HelmRelease whose status was lost adopts its own
   * release the same way, which changes nothing it would have done.
   */
  static boolean foreign(Release deployed, HelmReleaseStatus status) {
    List<ReleaseSnapshot> history =
        status == null || status.history() == null ? List.of() : status.history();
    return history.stream()
        .noneMatch(
            s ->
                Objects.equals(s.version(), deployed.version())
                    && Objects.equals(s.name(), deployed.name())
                    && Objects.equals(s.namespace(), deployed.namespace()));
  }

  /**
   * The objects of a manifest, in {@code defaultNamespace} when they name none (as Helm puts them):
   * the same form for a stored manifest and a new render, so that the two compare (without their
   * versions) whatever the scope of their kinds. An object without kind or name is left out.
   */
  static Set<ObjectRef> refs(List<GenericKubernetesResource> objects, String defaultNamespace) {
    Set<ObjectRef> refs = new LinkedHashSet<>();
    for (GenericKubernetesResource object : objects) {
      ObjectMeta meta = object.getMetadata();
      if (object.getKind() == null || meta == null || meta.getName() == null) {
        continue; // the apply refuses it by name; a stored one names nothing to prune
      }
      String namespace =
          meta.getNamespace() == null || meta.getNamespace().isEmpty()
              ? defaultNamespace
              : meta.getNamespace();
      refs.add(
          ObjectRef.of(
              object.getApiVersion() == null ? "v1" : object.getApiVersion(),
              object.getKind(),
              namespace,
              meta.getName()));
    }
    return refs;
  }

  /** What {@code baseline} has and {@code rendered} has not: what the upgrade deletes. */
  static List<ObjectRef> dropped(Set<ObjectRef> baseline, Set<ObjectRef> rendered) {
    Set<ObjectRef> kept = unversioned(rendered);
    return baseline.stream().filter(r -> !kept.contains(r.withoutVersion())).toList();
  }

  /**
   * What {@code rendered} has and {@code baseline} has not: what the release creates, whose
   * existing objects are checked for ownership.
   */
  static List<ObjectRef> added(Set<ObjectRef> rendered, Set<ObjectRef> baseline) {
    Set<ObjectRef> had = unversioned(baseline);
    return rendered.stream().filter(r -> !had.contains(r.withoutVersion())).toList();
  }

  private static Set<ObjectRef> unversioned(Set<ObjectRef> refs) {
    return refs.stream().map(ObjectRef::withoutVersion).collect(Collectors.toSet());
  }

  /**
   * Why an existing object the release creates cannot be taken without taking ownership: empty when
   * Helm's ownership metadata (the {@code app.kubernetes.io/managed-by: Helm} label and the {@code
   * meta.helm.sh/release-name} and {@code release-namespace} annotations) names {@code release},
   * exactly as Helm checks: Capstan's owner labels do not stand in for it (the objects Capstan
   * writes carry Helm's metadata too). Never quotes the object's values.
   */
  static Optional<String> conflict(ObjectRef ref, ObjectMeta live, Owner.HelmReleaseName release) {
    Map<String, String> labels = live.getLabels() == null ? Map.of() : live.getLabels();
    Map<String, String> annotations =
        live.getAnnotations() == null ? Map.of() : live.getAnnotations();
    String problem;
    if (!"Helm".equals(labels.get(ManifestObjects.MANAGED_BY))) {
      problem = "it is not labelled " + ManifestObjects.MANAGED_BY + ": Helm";
    } else if (!release.name().equals(annotations.get(Owner.HELM_RELEASE_NAME))) {
      problem = Owner.HELM_RELEASE_NAME + " is not '" + release.name() + "'";
    } else if (!release.namespace().equals(annotations.get(Owner.HELM_RELEASE_NAMESPACE))) {
      problem = Owner.HELM_RELEASE_NAMESPACE + " is not '" + release.namespace() + "'";
    } else {
      return Optional.empty();
    }
    return Optional.of(
        describe(ref)
            + " exists and cannot be taken into release '"
            + release.namespace()
            + "/"
            + release.name()
            + "': "
            + problem);
  }

  /** {@code Kind 'namespace/name'}, or {@code Kind 'name'} without a namespace. */
  static String describe(ObjectRef ref) {
    String where =
        ref.namespace() == null || ref.namespace().isEmpty()
            ? ref.name()
            : ref.namespace() + "/" + ref.name();
    return ref.kind() + " '" + where + "'";
  }
}
