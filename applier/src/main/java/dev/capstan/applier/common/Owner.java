package dev.capstan.applier.common;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Kustomization or HelmRelease that owns the applied objects; named on every object by two
 * labels of its API group ({@code <group>/name}, {@code <group>/namespace}).
 *
 * @param release for a HelmRelease, the Helm release it keeps (null when not known): an object
 *     without Capstan's labels whose Helm ownership metadata names that release is its too, as the
 *     objects of a release {@code helm install} or another controller made, which it adopted
 */
public record Owner(String name, String namespace, String group, HelmReleaseName release) {

  /** Helm's ownership annotation naming an object's release. */
  public static final String HELM_RELEASE_NAME = "meta.helm.sh/release-name";

  /** Helm's ownership annotation naming the namespace of an object's release. */
  public static final String HELM_RELEASE_NAMESPACE = "meta.helm.sh/release-namespace";

  public static final String KUSTOMIZATION_GROUP = "kustomize.capstan.dev";
  public static final String HELM_RELEASE_GROUP = "helm.capstan.dev";
  public static final String NAME_LABEL = KUSTOMIZATION_GROUP + "/name";
  public static final String NAMESPACE_LABEL = KUSTOMIZATION_GROUP + "/namespace";

  public Owner {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(group, "group");
  }

  public Owner(String name, String namespace, String group) {
    this(name, namespace, group, null);
  }

  /** A Kustomization's objects. */
  public Owner(String name, String namespace) {
    this(name, namespace, KUSTOMIZATION_GROUP);
  }

  /** The objects of the HelmRelease {@code namespace/name}. */
  public static Owner helmRelease(String name, String namespace) {
    return new Owner(name, namespace, HELM_RELEASE_GROUP);
  }

  /**
   * The objects of the HelmRelease {@code namespace/name}, which keeps the Helm release {@code
   * release}.
   */
  public static Owner helmRelease(String name, String namespace, HelmReleaseName release) {
    return new Owner(name, namespace, HELM_RELEASE_GROUP, release);
  }

  /** A Helm release: its name and the namespace its objects default to. */
  public record HelmReleaseName(String name, String namespace) {
    public HelmReleaseName {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(namespace, "namespace");
    }

    /** Whether Helm's ownership annotations name this release. */
    public boolean named(Map<String, String> annotations) {
      return annotations != null
          && name.equals(annotations.get(HELM_RELEASE_NAME))
          && namespace.equals(annotations.get(HELM_RELEASE_NAMESPACE));
    }
  }

  public String nameLabel() {
    return group + "/name";
  }

  public String namespaceLabel() {
    return group + "/namespace";
  }

  /** What owns the objects, as messages name it. */
  public String kind() {
    return HELM_RELEASE_GROUP.equals(group) ? "HelmRelease" : "Kustomization";
  }

  public Map<String, String> labels() {
    return Map.of(nameLabel(), name, namespaceLabel(), namespace);
  }

  /**
   * Whether an object's labels name this owner, or, for a HelmRelease that knows its release, it
   * carries no owner label of any Kustomization or HelmRelease and Helm's annotations name that
   * release.
   */
  public boolean owns(Map<String, String> objectLabels, Map<String, String> annotations) {
    if (owns(objectLabels)) {
      return true;
    }
    return release != null && !ownerLabelled(objectLabels) && release.named(annotations);
  }

  /**
   * Whether an object carries an owner label of any Kustomization or HelmRelease: such an object is
   * its labels' owner's, whatever Helm's annotations say.
   */
  private static boolean ownerLabelled(Map<String, String> objectLabels) {
    if (objectLabels == null) {
      return false;
    }
    return List.of(KUSTOMIZATION_GROUP, HELM_RELEASE_GROUP).stream()
        .anyMatch(
            group ->
                objectLabels.containsKey(group + "/name")
                    || objectLabels.containsKey(group + "/namespace"));
  }

  /** Whether an object's labels name this owner. Objects without both labels are not ours. */
  public boolean owns(Map<String, String> objectLabels) {
    if (objectLabels == null) {
      return false;
    }
    return name.equals(objectLabels.get(nameLabel()))
        && namespace.equals(objectLabels.get(namespaceLabel()));
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
