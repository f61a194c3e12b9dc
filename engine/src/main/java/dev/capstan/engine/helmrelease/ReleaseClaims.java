package dev.capstan.engine.helmrelease;

import dev.capstan.applier.common.Owner;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The objects a release creates that exist already and belong to another release or to no release,
 * when taking ownership is disabled ({@code disableTakeOwnership}): Helm refuses to import them,
 * and so does Capstan, naming each. Each object is read once, live, only then.
 */
final class ReleaseClaims {
  /** At most this many refused objects are named in one message. */
  static final int NAMED = 5;

  /**
   * How an object is read: its metadata, or null when it does not exist; {@code namespace} is its
   * own or the release's, which a kind of no namespace ignores.
   */
  @FunctionalInterface
  interface Live {
    ObjectMeta metadata(GenericKubernetesResource rendered, String namespace);
  }

  private final Live live;

  ReleaseClaims(Live live) {
    this.live = live;
  }

  /** Reading with {@code client}: a kind the cluster does not serve yet has no objects. */
  static ReleaseClaims of(KubernetesClient client) {
    return new ReleaseClaims((rendered, namespace) -> read(client, rendered, namespace));
  }

  /**
   * Why the objects of {@code rendered} that {@code added} names without their version (those the
   * replaced release did not have) cannot be taken into {@code release}; empty when every one can.
   */
  Optional<String> refused(
      List<GenericKubernetesResource> rendered,
      Set<ObjectRef> added,
      String defaultNamespace,
      Owner.HelmReleaseName release,
      Owner owner) {
    List<String> refused = new ArrayList<>();
    for (GenericKubernetesResource object : rendered) {
      Set<ObjectRef> refs = ReleaseAdoption.refs(List.of(object), defaultNamespace);
      if (refs.isEmpty()) {
        continue;
      }
      ObjectRef ref = refs.iterator().next();
      if (!added.contains(ref.withoutVersion())) {
        continue;
      }
      ObjectMeta meta = live.metadata(object, ref.namespace());
      if (meta != null) {
        ReleaseAdoption.conflict(ref, meta, release, owner).ifPresent(refused::add);
      }
    }
    if (refused.isEmpty()) {
      return Optional.empty();
    }
    String named = String.join("; ", refused.subList(0, Math.min(NAMED, refused.size())));
    String more = refused.size() > NAMED ? " and " + (refused.size() - NAMED) + " more" : "";
    return Optional.of(
        named + more + " (taking ownership is disabled by disableTakeOwnership: true)");
  }

  private static ObjectMeta read(
      KubernetesClient client, GenericKubernetesResource rendered, String namespace) {
    try {
      GenericKubernetesResource found =
          client
              .genericKubernetesResources(rendered.getApiVersion(), rendered.getKind())
              .inNamespace(namespace)
              .withName(rendered.getMetadata().getName())
              .get();
      return found == null ? null : found.getMetadata();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 || e.getCode() == 0) {
        return null; // its kind is not served (yet): nothing to take
      }
      throw e;
    }
  }
}
