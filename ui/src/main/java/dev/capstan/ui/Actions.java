package dev.capstan.ui;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.SourceReference;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.ReferenceRules;
import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * Carries out the page's actions with the user's own client, as {@code capstan reconcile
 * --with-source}, {@code suspend} and {@code resume} do, without waiting: the page shows the
 * outcome as the watches report it. A refusal is reported with the API server's own message. A
 * reconcile whose source the engine would refuse ({@link ReferenceRules}: under {@code
 * --no-cross-namespace-refs}, a source in another namespace) patches nothing, and says why: the
 * user's rights must not fetch for a tenant what the engine would not.
 */
final class Actions {
  private final KubernetesClient client;
  private final ReferenceRules rules;
  private final Clock clock;

  Actions(KubernetesClient client, ReferenceRules rules, Clock clock) {
    this.client = client;
    this.rules = rules;
    this.clock = clock;
  }

  PageAction.Result run(PageAction action, String namespace, String name) {
    return run(Kustomization.class, action, namespace, name);
  }

  /**
   * The action on a Kustomization or a HelmRelease: suspend and resume set {@code spec.suspend} of
   * either; a HelmRelease's reconcile asks for the release alone (its chart is fetched as its
   * HelmChart's interval says), with the same request annotation as a Kustomization's.
   */
  PageAction.Result run(
      Class<? extends HasMetadata> kind, PageAction action, String namespace, String name) {
    try {
      return switch (action) {
        case SUSPEND ->
            patch(kind, namespace, name, Map.of("spec", Map.of("suspend", true)), "suspended");
        case RESUME -> {
          Map<String, Object> patch = ReconcileRequest.at(clock).mergePatch();
          patch.put("spec", Map.of("suspend", false));
          yield patch(kind, namespace, name, patch, "resumed; reconcile requested");
        }
        case RECONCILE ->
            kind == HelmRelease.class
                ? reconcileRelease(namespace, name)
                : reconcile(namespace, name);
      };
    } catch (KubernetesClientException e) {
      return new PageAction.Result(false, ApiErrors.refusal(e));
    }
  }

  private PageAction.Result reconcile(String namespace, String name) {
    Kustomization ks =
        client.resources(Kustomization.class).inNamespace(namespace).withName(name).get();
    if (ks == null) {
      return new PageAction.Result(false, "Kustomization " + namespace + "/" + name + " not found");
    }
    if (ks.getSpec() != null && ks.getSpec().suspended()) {
      return new PageAction.Result(
          false, "Kustomization " + name + " is suspended: resume it first");
    }
    SourceReference source = ks.getSpec() == null ? null : ks.getSpec().sourceRef();
    String fetched = "";
    Class<? extends HasMetadata> sourceType = source == null ? null : sourceType(source.kind());
    if (source != null && source.name() != null && sourceType != null) {
      NamespacedName key = NamespacedName.resolve(source.namespace(), source.name(), namespace);
      Optional<String> refused = rules.sourceRefRefusal(namespace, sourceType.getSimpleName(), key);
      if (refused.isPresent()) {
        return new PageAction.Result(false, "reconcile not requested: " + refused.get());
      }
      patch(sourceType, key.namespace(), key.name(), ReconcileRequest.at(clock).mergePatch(), "");
      fetched = source.kind() + " " + key + " and ";
    }
    patch(Kustomization.class, namespace, name, ReconcileRequest.at(clock).mergePatch(), "");
    return new PageAction.Result(
        true, "reconcile requested for " + fetched + "Kustomization " + namespace + "/" + name);
  }

  private PageAction.Result reconcileRelease(String namespace, String name) {
    HelmRelease hr =
        client.resources(HelmRelease.class).inNamespace(namespace).withName(name).get();
    if (hr == null) {
      return new PageAction.Result(false, "HelmRelease " + namespace + "/" + name + " not found");
    }
    if (hr.getSpec() != null && hr.getSpec().suspended()) {
      return new PageAction.Result(
          false, "HelmRelease " + namespace + "/" + name + " is suspended: resume it first");
    }
    patch(HelmRelease.class, namespace, name, ReconcileRequest.at(clock).mergePatch(), "");
    return new PageAction.Result(
        true, "reconcile requested for HelmRelease " + namespace + "/" + name);
  }

  /**
   * The kind this view asks to fetch; null for an ExternalArtifact, which another controller
   * produces.
   */
  private static Class<? extends HasMetadata> sourceType(SourceReference.SourceKind kind) {
    if (kind == SourceReference.SourceKind.GitRepository) {
      return GitRepository.class;
    }
    if (kind == SourceReference.SourceKind.Bucket) {
      return Bucket.class;
    }
    return kind == SourceReference.SourceKind.OCIRepository ? OCIRepository.class : null;
  }

  private <T extends HasMetadata> PageAction.Result patch(
      Class<T> type, String namespace, String name, Map<String, Object> patch, String done) {
    String json = client.getKubernetesSerialization().asJson(patch);
    client
        .resources(type)
        .inNamespace(namespace)
        .withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), json);
    return new PageAction.Result(
        true, type.getSimpleName() + " " + namespace + "/" + name + " " + done);
  }
}
