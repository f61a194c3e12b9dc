package dev.capstan.cli.migrate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The Flux objects and the Capstan objects of the migrated kinds in the cluster. */
final class KindResources {

  private final KubernetesClient client;

  KindResources(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Every Flux object of every kind read, in {@code namespace} or all; a kind not installed: none.
   */
  List<Manifest> flux(Optional<String> namespace) {
    List<Manifest> all = new ArrayList<>();
    for (FluxKind kind : FluxKind.values()) {
      all.addAll(list(kind, false, namespace));
    }
    return all;
  }

  /** Every Capstan object of the migrated kinds. */
  List<Manifest> capstan(Optional<String> namespace) {
    List<Manifest> all = new ArrayList<>();
    for (FluxKind kind : FluxKind.values()) {
      all.addAll(list(kind, true, namespace));
    }
    return all;
  }

  /**
   * What a plan reads of one group: the objects, and whether they are every namespace's ({@code
   * false} when only the scope's own could be read).
   */
  record View(List<Manifest> objects, boolean everyNamespace) {}

  /**
   * What a plan for {@code namespace} reads of both groups: every namespace's objects, for the
   * sourceRefs that cross namespaces, or only its own when listing the others is forbidden.
   */
  View around(Optional<String> namespace, boolean capstan) {
    if (namespace.isPresent()) {
      try {
        return new View(capstan ? capstan(Optional.empty()) : flux(Optional.empty()), true);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 403) {
          throw e;
        }
      }
    }
    return new View(capstan ? capstan(namespace) : flux(namespace), namespace.isEmpty());
  }

  Resource<GenericKubernetesResource> flux(FluxKind kind, String namespace, String name) {
    return operation(kind, false).inNamespace(namespace).withName(name);
  }

  Resource<GenericKubernetesResource> capstan(FluxKind kind, String namespace, String name) {
    return operation(kind, true).inNamespace(namespace).withName(name);
  }

  Optional<Manifest> read(FluxKind kind, boolean capstan, String namespace, String name) {
    Resource<GenericKubernetesResource> resource =
        capstan ? capstan(kind, namespace, name) : flux(kind, namespace, name);
    return Optional.ofNullable(resource.get()).map(o -> new Manifest(kind, o));
  }

  private List<Manifest> list(FluxKind kind, boolean capstan, Optional<String> namespace) {
    MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, ?> operation;
    try {
      operation = operation(kind, capstan);
      GenericKubernetesResourceList list =
          namespace.isPresent()
              ? operation.inNamespace(namespace.get()).list()
              : operation.inAnyNamespace().list();
      return list.getItems().stream().map(o -> new Manifest(kind, o)).toList();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return List.of(); // the kind's CRD is not installed
      }
      throw e;
    }
  }

  private MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      operation(FluxKind kind, boolean capstan) {
    String apiVersion = capstan ? kind.capstanApiVersion() : kind.fluxApiVersion();
    int slash = apiVersion.indexOf('/');
    return client.genericKubernetesResources(
        new ResourceDefinitionContext.Builder()
            .withGroup(apiVersion.substring(0, slash))
            .withVersion(apiVersion.substring(slash + 1))
            .withKind(kind.kind)
            .withPlural(kind.plural())
            .withNamespaced(true)
            .build());
  }
}
