package dev.capstan.engine.monitor;

import dev.capstan.applier.Owner;
import dev.capstan.applier.apply.ResourceCatalog;
import dev.capstan.applier.apply.ResourceType;
import dev.capstan.engine.cache.WithoutManagedFields;
import dev.capstan.kube.ApiErrors;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shared informer per kind (group and kind; the version does not matter), for objects that
 * carry Capstan's ownership label only. Started when some inventory first needs the kind, stopped
 * when none does any more. Not thread-safe: the monitor serializes calls.
 */
final class KindInformers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KindInformers.class);

  /** The group and kind of an object, the key of its informer. */
  record Kind(String group, String kind) {
    static Kind of(ObjectRef ref) {
      return new Kind(ref.group(), ref.kind());
    }
  }

  private final KubernetesClient client;
  private final Consumer<GenericKubernetesResource> onChange;
  private final Map<Kind, SharedIndexInformer<GenericKubernetesResource>> informers =
      new HashMap<>();
  private final Map<Kind, ResourceType> types = new HashMap<>();

  /** Why a served kind could not be watched at the last try (its API server refused the watch). */
  private final Map<Kind, String> refused = new HashMap<>();

  KindInformers(KubernetesClient client, Consumer<GenericKubernetesResource> onChange) {
    this.client = client;
    this.onChange = onChange;
  }

  /**
   * Makes the running informers exactly those of {@code needed}; {@code versions} picks the version
   * to watch.
   */
  void retain(Map<Kind, String> needed) {
    for (Kind kind : Set.copyOf(informers.keySet())) {
      if (!needed.containsKey(kind)) {
        informers.remove(kind).close();
        types.remove(kind);
        LOG.debug("stopped watching {}", kind);
      }
    }
    refused.keySet().retainAll(needed.keySet());
    ResourceCatalog catalog = new ResourceCatalog(client);
    needed.forEach(
        (kind, apiVersion) -> {
          if (!informers.containsKey(kind)) {
            start(kind, apiVersion, catalog);
          }
        });
  }

  Set<Kind> running() {
    return Set.copyOf(informers.keySet());
  }

  /** Whether the kind's informer has its first list; false if the kind is not watched. */
  boolean synced(Kind kind) {
    SharedIndexInformer<GenericKubernetesResource> informer = informers.get(kind);
    return informer != null && informer.hasSynced();
  }

  boolean watched(Kind kind) {
    return informers.containsKey(kind);
  }

  /**
   * Why the kind is not watched although it may be served: the API server refused to list or watch
   * it in all namespaces (bounded, without the object's data); empty if it is watched or not
   * served.
   */
  Optional<String> refusal(Kind kind) {
    return Optional.ofNullable(refused.get(kind));
  }

  /** How the API server serves each watched kind. */
  Map<Kind, ResourceType> types() {
    return Map.copyOf(types);
  }

  /** The cached object, if the kind is watched and the object exists. */
  Optional<GenericKubernetesResource> get(ObjectRef ref) {
    Kind kind = Kind.of(ref);
    SharedIndexInformer<GenericKubernetesResource> informer = informers.get(kind);
    if (informer == null) {
      return Optional.empty();
    }
    String key = types.get(kind).namespaced() ? ref.namespace() + "/" + ref.name() : ref.name();
    return Optional.ofNullable(informer.getStore().getByKey(key));
  }

  private void start(Kind kind, String apiVersion, ResourceCatalog catalog) {
    try {
      Optional<ResourceType> type = catalog.find(apiVersion, kind.kind());
      if (type.isEmpty()) {
        LOG.debug("cannot watch {}: not served", kind);
        return;
      }
      SharedIndexInformer<GenericKubernetesResource> informer =
          client
              .genericKubernetesResources(type.get().context())
              .inAnyNamespace()
              .withLabel(Owner.NAME_LABEL)
              .runnableInformer(0);
      informer.itemStore(new WithoutManagedFields<>());
      informer.addEventHandler(handler());
      informer.run();
      informers.put(kind, informer);
      types.put(kind, type.get());
      refused.remove(kind);
      LOG.debug("watching {}", kind);
    } catch (KubernetesClientException e) {
      LOG.warn("cannot watch {}: {}", kind, e.getMessage());
      refused.put(kind, "cannot watch " + kind.kind() + " in all namespaces: " + why(e));
    }
  }

  /** The HTTP status and the API server's message, bounded; or the failure's kind. */
  private static String why(KubernetesClientException e) {
    String message = e.getCode() > 0 ? ApiErrors.httpAnswer(e) : "the request failed";
    return message.length() > 300 ? message.substring(0, 300) + "…" : message;
  }

  private ResourceEventHandler<GenericKubernetesResource> handler() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(GenericKubernetesResource obj) {
        onChange.accept(obj);
      }

      @Override
      public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
        onChange.accept(newObj);
      }

      @Override
      public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
        onChange.accept(obj);
      }
    };
  }

  @Override
  public void close() {
    informers.values().forEach(SharedIndexInformer::close);
    informers.clear();
    types.clear();
  }
}
