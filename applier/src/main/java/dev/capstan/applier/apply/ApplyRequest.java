package dev.capstan.applier.apply;

import dev.capstan.applier.common.Owner;
import dev.capstan.applier.ignore.IgnoreRules;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
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
    boolean firstApply) {

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

  /** A request with drift corrected, no field ignored, under the default policy. */
  public ApplyRequest(
      List<GenericKubernetesResource> objects,
      Owner owner,
      boolean force,
      Duration timeout,
      String defaultNamespace,
      ApplyListener listener) {
    this(objects, owner, force, timeout, defaultNamespace, listener, null, null, null, false);
  }

  public static ApplyRequest of(List<GenericKubernetesResource> objects, Owner owner) {
    return new ApplyRequest(
        objects, owner, false, Duration.ofMinutes(5), owner.namespace(), ApplyListener.NONE);
  }

  public ApplyRequest withForce(boolean newForce) {
    return new ApplyRequest(
        objects,
        owner,
        newForce,
        timeout,
        defaultNamespace,
        listener,
        ignore,
        drift,
        policy,
        firstApply);
  }

  public ApplyRequest withTimeout(Duration newTimeout) {
    return new ApplyRequest(
        objects,
        owner,
        force,
        newTimeout,
        defaultNamespace,
        listener,
        ignore,
        drift,
        policy,
        firstApply);
  }

  public ApplyRequest withDefaultNamespace(String namespace) {
    return new ApplyRequest(
        objects, owner, force, timeout, namespace, listener, ignore, drift, policy, firstApply);
  }

  public ApplyRequest withIgnore(IgnoreRules rules) {
    return new ApplyRequest(
        objects,
        owner,
        force,
        timeout,
        defaultNamespace,
        listener,
        rules,
        drift,
        policy,
        firstApply);
  }

  public ApplyRequest withDrift(DriftPolicy newDrift) {
    return new ApplyRequest(
        objects,
        owner,
        force,
        timeout,
        defaultNamespace,
        listener,
        ignore,
        newDrift,
        policy,
        firstApply);
  }

  public ApplyRequest withPolicy(ApplyPolicy newPolicy) {
    return new ApplyRequest(
        objects,
        owner,
        force,
        timeout,
        defaultNamespace,
        listener,
        ignore,
        drift,
        newPolicy,
        firstApply);
  }

  public ApplyRequest withFirstApply(boolean value) {
    return new ApplyRequest(
        objects, owner, force, timeout, defaultNamespace, listener, ignore, drift, policy, value);
  }
}
