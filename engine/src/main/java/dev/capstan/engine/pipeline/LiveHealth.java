package dev.capstan.engine.pipeline;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.applier.apply.ResourceCatalog;
import dev.capstan.applier.apply.ResourceType;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.Aggregation;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.ObjectRef;
import dev.capstan.health.ResourceHealth;
import dev.capstan.health.ResourceStatus;
import dev.capstan.health.Status;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The health of objects read straight from the API server. The wait reads live objects rather
 * than a cache so that an object applied a moment ago is never judged by its previous version.
 */
public final class LiveHealth {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private final KubernetesClient client;
  private final ObjectMapper mapper = new ObjectMapper();

  LiveHealth(KubernetesClient client) {
    this.client = client;
  }

  AggregateHealth of(List<ObjectRef> refs, HealthEvaluator evaluator) {
    ResourceCatalog catalog = new ResourceCatalog(client);
    List<ResourceHealth> healths = new ArrayList<>(refs.size());
    for (ObjectRef ref : refs) {
      Optional<ResourceHealth> health = healthOf(ref, evaluator, catalog);
      health.ifPresent(healths::add);
    }
    return Aggregation.of(healths);
  }

  private Optional<ResourceHealth> healthOf(ObjectRef ref, HealthEvaluator evaluator, ResourceCatalog catalog) {
    try {
      Optional<ResourceType> type = catalog.find(ref.apiVersion(), ref.kind());
      if (type.isEmpty()) {
        return Optional.of(new ResourceHealth(ref, new ResourceStatus(Status.Unknown, "KindNotServed",
            "the API server does not serve " + ref.apiVersion() + "/" + ref.kind())));
      }
      var resources = client.genericKubernetesResources(type.get().context());
      GenericKubernetesResource live =
          type.get().namespaced()
              ? resources.inNamespace(ref.namespace()).withName(ref.name()).get()
              : resources.withName(ref.name()).get();
      if (live == null) {
        return Optional.of(new ResourceHealth(ref, new ResourceStatus(Status.NotFound, "", "not found")));
      }
      Map<String, Object> object = mapper.convertValue(live, MAP);
      if (HealthEvaluator.isSkipped(object)) {
        return Optional.empty();
      }
      return Optional.of(new ResourceHealth(ref, evaluator.status(object)));
    } catch (KubernetesClientException e) {
      return Optional.of(new ResourceHealth(ref, new ResourceStatus(Status.Unknown, "ReadFailed",
          "cannot read: " + (e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage()))));
    }
  }
}
