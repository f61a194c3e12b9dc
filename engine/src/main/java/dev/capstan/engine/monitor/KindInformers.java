package dev.capstan.engine.monitor;

import dev.capstan.applier.apply.ResourceCatalog;
import dev.capstan.applier.apply.ResourceType;
import dev.capstan.engine.cache.WithoutManagedFields;
import dev.capstan.kube.ApiErrors;
import dev.capstan.kube.GroupKind;
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
 * The health monitor's informers of one cluster ({@link InformersByKind}), for objects that carry
 * one kind of owner's ownership label only. Started when some inventory first needs the kind,
 * stopped when none does any more. Not thread-safe: the monitor serializes calls.
 */
final class KindInformers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KindInformers.class);

  private final KubernetesClient client;
  private final String ownerLabel;
  private final Consumer<GenericKubernetesResource> onChange;
  private final InformersByKind informers = new InformersByKind("health");
  private final Map<GroupKind, ResourceType> types = new HashMap<>();

  /** Why a served kind could not be watched at the last try (its API server refused the watch). */
  private final Map<GroupKind, String> refused = new HashMap<>();

  /** {@code ownerLabel}: the label every watched object carries (the owner's name). */
  KindInformers(
      KubernetesClient client, String ownerLabel, Consumer<GenericKubernetesResource> onChange) {
    this.client = client;
    this.ownerLabel = ownerLabel;
    this.onChange = onChange;
  }

  /**
   * Makes the running informers exactly those of {@code needed}; {@code versions} picks the version
   * to watch.
   */
  void retain(Map<GroupKind, String> needed) {
    types.keySet().removeAll(informers.retainOnly(needed.keySet()));
    refused.keySet().retainAll(needed.keySet());
    ResourceCatalog catalog = new ResourceCatalog(client);
    needed.forEach((kind, apiVersion) -> informers.watch(kind, k -> start(k, apiVersion, catalog)));
  }

  Set<GroupKind> running() {
    return informers.kinds();
  }

  /** Whether the kind's informer has its first list; false if the kind is not watched. */
  boolean synced(GroupKind kind) {
    return informers.get(kind).map(SharedIndexInformer::hasSynced).orElse(false);
  }

  /**
   * Whether {@code ref}'s kind is watched at {@code ref}'s own version, listed and watching now: a
   * copy is then as fresh as a watch keeps it, and judged by the checks of that version (a kind is
   * watched at the first version asked for; a watch that stopped keeps its first list's copies).
   */
  boolean watching(ObjectRef ref) {
    ResourceType type = types.get(ref.groupKind());
    return type != null
        && type.version().equals(ref.version())
        && informers.get(ref.groupKind()).map(i -> i.hasSynced() && i.isWatching()).orElse(false);
  }

  boolean watched(GroupKind kind) {
    return informers.watched(kind);
  }

  /**
   * Why the kind is not watched although it may be served: the API server refused to list or watch
   * it in all namespaces (bounded, without the object's data); empty if it is watched or not
   * served.
   */
  Optional<String> refusal(GroupKind kind) {
    return Optional.ofNullable(refused.get(kind));
  }

  /** How the API server serves each watched kind. */
  Map<GroupKind, ResourceType> types() {
    return Map.copyOf(types);
  }

  /** The cached object, if the kind is watched and the object exists. */
  Optional<GenericKubernetesResource> get(ObjectRef ref) {
    GroupKind kind = ref.groupKind();
    return informers
        .get(kind)
        .map(
            informer ->
                informer
                    .getStore()
                    .getByKey(
                        types.get(kind).namespaced()
                            ? ref.namespace() + "/" + ref.name()
                            : ref.name()));
  }

  /** The running informer of {@code kind}; empty when it is not served or cannot be watched. */
  private Optional<SharedIndexInformer<GenericKubernetesResource>> start(
      GroupKind kind, String apiVersion, ResourceCatalog catalog) {
    try {
      Optional<ResourceType> type = catalog.find(apiVersion, kind.kind());
      if (type.isEmpty()) {
        LOG.debug("cannot watch {}: not served", kind);
        return Optional.empty();
      }
      SharedIndexInformer<GenericKubernetesResource> informer =
          client
              .genericKubernetesResources(type.get().context())
              .inAnyNamespace()
              .withLabel(ownerLabel)
              .runnableInformer(0);
      informer.itemStore(new WithoutManagedFields<>());
      informer.addEventHandler(handler());
      informer.run();
      types.put(kind, type.get());
      refused.remove(kind);
      LOG.debug("watching {}", kind);
      return Optional.of(informer);
    } catch (KubernetesClientException e) {
      LOG.warn("cannot watch {}: {}", kind, e.getMessage());
      refused.put(kind, "cannot watch " + kind.kind() + " in all namespaces: " + why(e));
      return Optional.empty();
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
    informers.close();
    types.clear();
  }
}
