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
import java.util.function.Supplier;

/**
 * The objects a release creates that exist already and belong to another release or to no release,
 * when taking ownership is disabled ({@code disableTakeOwnership}): Helm refuses to import them,
 * and so does Capstan, naming each. Each object is read once, live, only then.
 */
final class ReleaseClaims {
  /** At most this many refused objects are named in one message. */
  static final int NAMED = 5;

  /** The code of the client's exception for a kind discovery does not find: no HTTP answer. */
  static final int UNSERVED_KIND = -1;

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
      Owner.HelmReleaseName release) {
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
        ReleaseAdoption.conflict(ref, meta, release).ifPresent(refused::add);
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
    return metadataOrNone(
        () ->
            client
                .genericKubernetesResources(rendered.getApiVersion(), rendered.getKind())
                .inNamespace(namespace)
                .withName(rendered.getMetadata().getName())
                .get());
  }

  /**
   * The metadata {@code get} reads, or null when the object does not exist: answered 404, or its
   * kind is not served (yet), a kind whose CRD the release writes first, for which the client finds
   * no resource and throws with no HTTP code (-1) and no cause. Any other failure is thrown, a
   * request that failed on the way (-1 with the I/O error its cause) too: it read nothing.
   */
  static ObjectMeta metadataOrNone(Supplier<GenericKubernetesResource> get) {
    try {
      GenericKubernetesResource found = get.get();
      return found == null ? null : found.getMetadata();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 || unserved(e)) {
        return null;
      }
      throw e;
    }
  }

  private static boolean unserved(KubernetesClientException e) {
    return e.getCode() == UNSERVED_KIND && e.getCause() == null && e.getStatus() == null;
  }
}
