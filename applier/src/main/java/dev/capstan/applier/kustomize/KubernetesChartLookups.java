package dev.capstan.applier.kustomize;

import dev.capstan.kustomize.chart.ChartLookups;
import dev.capstan.kustomize.chart.LookupAnswer;
import dev.capstan.kustomize.chart.LookupQuery;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;

/**
 * A chart's {@code lookup} calls answered from the cluster, as Helm's {@code lookup} answers them
 * there: GET of the named object (in the namespace, when one is given; a namespaced kind named
 * without a namespace is not found, as there), or LIST without a name (in every namespace when none
 * is given). Only reads. The client is the caller's and so is its identity: a release's service
 * account, impersonated, reads only what that account may read. An object that does not exist is
 * {@link LookupAnswer.Missing} (Helm's empty map); one the identity may not read, or a kind the
 * server does not serve, is refused, naming the lookup and the server's reason code, never the
 * object.
 */
public final class KubernetesChartLookups implements ChartLookups {
  private final KubernetesClient client;

  public KubernetesChartLookups(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public LookupAnswer lookup(LookupQuery lookup) {
    try {
      MixedOperation<
              GenericKubernetesResource,
              GenericKubernetesResourceList,
              Resource<GenericKubernetesResource>>
          kind = client.genericKubernetesResources(lookup.apiVersion(), lookup.kind());
      if (lookup.list()) {
        GenericKubernetesResourceList list =
            lookup.namespace().isEmpty()
                ? kind.inAnyNamespace().list()
                : kind.inNamespace(lookup.namespace()).list();
        return new LookupAnswer.Found(client.getKubernetesSerialization().asJson(list));
      }
      if (lookup.namespace().isEmpty() && namespaced(lookup)) {
        // Helm asks for the object outside any namespace, which the server does not find; the
        // client would ask in its own default namespace instead
        return new LookupAnswer.Missing();
      }
      GenericKubernetesResource object =
          lookup.namespace().isEmpty()
              ? kind.withName(lookup.name()).get()
              : kind.inNamespace(lookup.namespace()).withName(lookup.name()).get();
      return object == null
          ? new LookupAnswer.Missing()
          : new LookupAnswer.Found(client.getKubernetesSerialization().asJson(object));
    } catch (KubernetesClientException e) {
      return e.getCode() == 404 ? new LookupAnswer.Missing() : refused(lookup, e.getCode());
    }
  }

  private boolean namespaced(LookupQuery lookup) {
    APIResourceList served = client.getApiResources(lookup.apiVersion());
    return served != null
        && served.getResources().stream()
            .anyMatch(
                r -> r.getKind().equals(lookup.kind()) && Boolean.TRUE.equals(r.getNamespaced()));
  }

  private static LookupAnswer refused(LookupQuery lookup, int code) {
    String why =
        switch (code) {
          case 401 -> "the identity is not authenticated";
          case 403 -> "is forbidden to this identity";
          case 0 -> "no such kind is served, or the server cannot be reached";
          default -> "the server answered " + code;
        };
    return new LookupAnswer.Refused(
        "lookup of " + lookup.describe() + (code == 403 ? " " : " cannot be read: ") + why);
  }
}
