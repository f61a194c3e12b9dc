package dev.capstan.applier.apply;

import dev.capstan.applier.CapstanMetadata;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;

/**
 * Single-object calls to the API server: server-side apply (field manager {@code capstan},
 * conflicts forced so Capstan takes ownership of what it applies), dry-run, get and delete.
 */
public final class ServerSideApply {

  private final KubernetesClient client;

  public ServerSideApply(KubernetesClient client) {
    this.client = client;
  }

  public GenericKubernetesResource apply(DesiredObject desired, boolean dryRun)
      throws RejectedException {
    try {
      Resource<GenericKubernetesResource> resource = resource(desired);
      var writable = dryRun ? resource.dryRun() : resource;
      return writable
          .fieldManager(CapstanMetadata.FIELD_MANAGER)
          .forceConflicts()
          .serverSideApply();
    } catch (KubernetesClientException e) {
      throw new RejectedException(Rejection.of(e));
    }
  }

  public GenericKubernetesResource get(DesiredObject desired) {
    return resource(desired).get();
  }

  /** Deletes in the background; returns false when the object was already gone. */
  public boolean delete(DesiredObject desired) throws RejectedException {
    try {
      return !resource(desired)
          .withPropagationPolicy(DeletionPropagation.BACKGROUND)
          .delete()
          .isEmpty();
    } catch (KubernetesClientException e) {
      throw new RejectedException(Rejection.of(e));
    }
  }

  private Resource<GenericKubernetesResource> resource(DesiredObject desired) {
    var resources = client.genericKubernetesResources(desired.type().context());
    var scoped =
        desired.type().namespaced() ? resources.inNamespace(desired.ref().namespace()) : resources;
    return scoped.resource(desired.object());
  }
}
