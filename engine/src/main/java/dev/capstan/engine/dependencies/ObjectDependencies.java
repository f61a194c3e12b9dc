package dev.capstan.engine.dependencies;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.applier.apply.ResourceCatalog;
import dev.capstan.applier.apply.ResourceType;
import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.Map;
import java.util.Optional;

/**
 * Reads depended-on objects live, with the client the dependent (a Kustomization or a HelmRelease)
 * acts through: impersonating its service account when it has one. The API server then decides, as
 * for every other read of the reconcile, whether that account may get the object; a refusal reads
 * as "not found" with who may not get what, never as anything about the object itself (the API
 * server answers 403 before it looks the object up). Not thread-safe: one per check.
 */
public final class ObjectDependencies {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final KubernetesClient client;
  private final String reader;
  private final ResourceCatalog catalog;

  /**
   * @param reader who reads, for messages: a service account's user name, or "the engine"
   */
  public ObjectDependencies(KubernetesClient client, String reader) {
    this.client = client;
    this.reader = reader;
    this.catalog = new ResourceCatalog(client);
  }

  /** The client the objects are read with: the Kustomization's service account, or the engine. */
  public KubernetesClient client() {
    return client;
  }

  /** How the API server serves the dependency's kind; empty if it does not. */
  public Optional<ResourceType> type(ObjectDependency id) {
    return catalog.find(id.apiVersion(), id.kind());
  }

  /**
   * Reads the dependency, at cluster scope when its kind is cluster-scoped; not served when the API
   * server does not serve its kind.
   */
  public DependencyLookup lookup(ObjectDependency id) {
    Optional<ResourceType> type = type(id);
    if (type.isEmpty()) {
      return new DependencyLookup.NotServed();
    }
    return read(type.get().namespaced() ? id : id.clusterScoped(), type.get());
  }

  /** Reads the dependency, of a kind served as {@code type}. */
  public DependencyLookup read(ObjectDependency id, ResourceType type) {
    try {
      var resources = client.genericKubernetesResources(type.context());
      GenericKubernetesResource live =
          type.namespaced()
              ? resources.inNamespace(id.namespace()).withName(id.name()).get()
              : resources.withName(id.name()).get();
      return live == null
          ? new DependencyLookup.Missing()
          : new DependencyLookup.Found(MAPPER.convertValue(live, MAP));
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_FORBIDDEN) {
        return new DependencyLookup.Unreadable(reader + " may not get " + describe(type, id));
      }
      return new DependencyLookup.ReadFailed(ApiErrors.reason(e));
    }
  }

  /** {@code deployments.apps in namespace web}, {@code namespaces at cluster scope}. */
  private static String describe(ResourceType type, ObjectDependency id) {
    String resource = type.group().isEmpty() ? type.plural() : type.plural() + "." + type.group();
    return resource + (type.namespaced() ? " in namespace " + id.namespace() : " at cluster scope");
  }
}
