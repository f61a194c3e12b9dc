package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The release's target namespace before an install, as {@code helm install --create-namespace} has
 * it: with {@code install.createNamespace}, created when missing, labelled {@code name: <ns>} as
 * Helm labels it; without, nothing is looked at (Helm does not look either). An upgrade creates
 * none, and an uninstall never deletes the namespace (Helm does not).
 */
final class ReleaseNamespace {
  private static final int FORBIDDEN = 403;
  private static final int CONFLICT = 409;

  private ReleaseNamespace() {}

  /** The cluster's namespaces, as the identity acting for a release sees them. */
  interface Namespaces {
    /**
     * The namespace, empty when it does not exist.
     *
     * @throws KubernetesClientException as the API server refused it (403: may not read it)
     */
    Optional<Namespace> get(String name);

    /**
     * Creates {@code namespace}.
     *
     * @throws KubernetesClientException as the API server refused it (409: it exists)
     */
    void create(Namespace namespace);

    static Namespaces of(KubernetesClient client) {
      return new Namespaces() {
        @Override
        public Optional<Namespace> get(String name) {
          return Optional.ofNullable(client.namespaces().withName(name).get());
        }

        @Override
        public void create(Namespace namespace) {
          client.namespaces().resource(namespace).create();
        }
      };
    }
  }

  /**
   * Before an install ({@code upgrade} false) of {@code release} with {@code
   * install.createNamespace}: its target namespace created when missing, unless its rendered {@code
   * objects} make it themselves (their apply creates it first). Without createNamespace nothing is
   * checked, as Helm checks nothing: a chart of cluster-scoped objects only, or one whose hook
   * makes the namespace, installs, and an object that needs a missing namespace fails at its own
   * apply.
   *
   * @throws ReleaseFailure naming the namespace that could not be created
   */
  static void prepare(
      HelmRelease release,
      List<GenericKubernetesResource> objects,
      Namespaces namespaces,
      boolean upgrade) {
    String name = release.releaseNamespace();
    boolean create = Boolean.TRUE.equals(release.getSpec().effectiveInstall().createNamespace());
    if (upgrade || !create || objects.stream().anyMatch(o -> isNamespace(o, name))) {
      return;
    }
    try {
      if (namespaces.get(name).isPresent()) {
        return;
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() != FORBIDDEN) {
        throw e;
      }
      // an account that may not read namespaces: the create tells whether it exists (409)
    }
    create(namespaces, name);
  }

  private static boolean isNamespace(GenericKubernetesResource object, String name) {
    return "Namespace".equals(object.getKind())
        && "v1".equals(object.getApiVersion())
        && object.getMetadata() != null
        && name.equals(object.getMetadata().getName());
  }

  private static void create(Namespaces namespaces, String name) {
    try {
      namespaces.create(
          new NamespaceBuilder()
              .withNewMetadata()
              .withName(name)
              .withLabels(Map.of("name", name))
              .endMetadata()
              .build());
    } catch (KubernetesClientException e) {
      if (e.getCode() == CONFLICT) {
        return; // made meanwhile, or there all along for an account that may not read it
      }
      throw ReleaseFailure.releaseFailed(
          ReleaseReason.INSTALL_FAILED,
          "target namespace \"" + name + "\" could not be created: " + ApiErrors.refusal(e));
    }
  }
}
