package dev.capstan.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/** Lets a test's objects go without the engine that put finalizers on them. */
public final class Finalizers {

  private Finalizers() {}

  /**
   * Clears the object's finalizers with a merge patch that carries no resourceVersion: an engine's
   * last status write may land between a read and a write, and a locked edit would then fail the
   * test's cleanup with a conflict.
   */
  public static void clear(Resource<? extends HasMetadata> object) {
    try {
      object.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }
}
