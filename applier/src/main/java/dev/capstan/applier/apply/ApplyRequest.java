package dev.capstan.applier.apply;

import dev.capstan.applier.common.Owner;
import dev.capstan.applier.ignore.IgnoreRules;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One revision to apply.
 *
 * @param objects the built objects, in build order
 * @param owner the Kustomization named by the ownership labels
 * @param force delete and recreate objects whose immutable fields changed
 * @param timeout how long to wait for CRDs to become Established and for deletions
 * @param defaultNamespace namespace for namespaced objects that name none
 * @param listener told about each object's outcome as it happens
 * @param ignore fields left out of the comparison with the live objects and kept as they are live
 * @param drift what happens to objects another writer changed
 * @param policy the custom apply stage and the field managers taken over
 * @param firstApply the owner has applied nothing before (it keeps no inventory): its objects are
 *     not looked for by its labels, and every object is dry-run and written; when false they are,
 *     and objects found unchanged are left alone
 */
@RecordBuilder
public record ApplyRequest(
    List<GenericKubernetesResource> objects,
    Owner owner,
    boolean force,
    Duration timeout,
    String defaultNamespace,
    ApplyListener listener,
    IgnoreRules ignore,
    DriftPolicy drift,
    ApplyPolicy policy,
    boolean firstApply)
    implements ApplyRequestBuilder.With {

  public ApplyRequest {
    objects = List.copyOf(objects);
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(defaultNamespace, "defaultNamespace");
    listener = listener == null ? ApplyListener.NONE : listener;
    ignore = ignore == null ? IgnoreRules.NONE : ignore;
    drift = drift == null ? DriftPolicy.CORRECT : drift;
    policy = policy == null ? ApplyPolicy.DEFAULT : policy;
  }

  /** A request with the defaults: not forced, five minutes, the owner's namespace, told nothing. */
  public static ApplyRequest of(List<GenericKubernetesResource> objects, Owner owner) {
    return ApplyRequestBuilder.builder()
        .objects(objects)
        .owner(owner)
        .timeout(Duration.ofMinutes(5))
        .defaultNamespace(owner.namespace())
        .build();
  }
}
