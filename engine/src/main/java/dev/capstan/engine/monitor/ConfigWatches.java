package dev.capstan.engine.monitor;

import dev.capstan.engine.cache.MetadataOnly;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the ConfigMaps and Secrets that Kustomizations read (postBuild.substituteFrom, the
 * decryption and kubeConfig Secrets, the kubeConfig ConfigMap), as Flux's config watchers: only
 * those matching {@code --watch-configs-label-selector} (Flux's default {@code
 * reconcile.fluxcd.io/watch=Enabled}; an empty selector watches all of them). The selector goes to
 * the API server, so nothing else is sent to the engine. The objects are listed and watched as
 * their metadata only ({@link MetadataOnlyRequests}: the API server leaves out their data, which
 * nothing here reads and which may be any tenant's megabytes of Secrets, Helm's release Secrets
 * among them), the lists in pages of {@value #LIST_PAGE}, and the informers keep identities only. A
 * change after the first list (creation, a new resourceVersion, deletion) is reported as {@code
 * Kind} and the object's key; the listener reconciles the Kustomizations that read it, which read
 * the object itself.
 */
public final class ConfigWatches implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigWatches.class);
  private static final List<String> KINDS = List.of("ConfigMap", "Secret");

  /** Objects per page of a list (the first, and each after a watch ended too long ago). */
  static final long LIST_PAGE = 500;

  private final KubernetesClient client;
  private final String labelSelector;
  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
  private volatile BiConsumer<String, NamespacedName> listener = (kind, key) -> {};

  /**
   * @param engine the engine's client; the watches use a client of their own with its settings,
   *     which asks for metadata only
   * @param http the HTTP clients of that client (the engine's event loops, which their owner
   *     closes)
   * @param labelSelector which ConfigMaps and Secrets are watched; empty: all of them
   */
  public ConfigWatches(KubernetesClient engine, HttpClient.Factory http, String labelSelector) {
    this.client = MetadataOnlyRequests.client(engine, http);
    this.labelSelector = Objects.requireNonNull(labelSelector, "labelSelector").strip();
  }

  /** Who to tell when a watched ConfigMap or Secret changed: its kind and key. */
  public void onChange(BiConsumer<String, NamespacedName> changed) {
    this.listener = changed;
  }

  /**
   * Starts one informer per kind, in all namespaces; returns once both have their first list.
   *
   * @throws IllegalArgumentException when the API server refuses the selector (HTTP 400)
   */
  public synchronized void start() {
    for (String kind : KINDS) {
      try {
        informers.add(watch(kind));
      } catch (KubernetesClientException e) {
        if (e.getCode() == 400) {
          throw new IllegalArgumentException(
              "--watch-configs-label-selector '"
                  + labelSelector
                  + "' is refused by the API server: "
                  + ApiErrors.reason(e));
        }
        // Reconciling goes on without it: changes are then seen at the next interval.
        LOG.warn(
            "cannot watch {}s in all namespaces (changes of those Kustomizations read are seen at"
                + " their next reconcile): {}",
            kind,
            e.getMessage());
      }
    }
  }

  private SharedIndexInformer<GenericKubernetesResource> watch(String kind) {
    var resources = client.genericKubernetesResources("v1", kind).inAnyNamespace();
    SharedIndexInformer<GenericKubernetesResource> informer =
        (labelSelector.isEmpty() ? resources : resources.withLabelSelector(labelSelector))
            .withLimit(LIST_PAGE)
            .runnableInformer(0);
    informer.itemStore(new MetadataOnly());
    Changes changes = new Changes(kind);
    informer.addEventHandler(changes);
    informer.run();
    changes.listed(informer);
    LOG.debug("watching {}s{}", kind, labelSelector.isEmpty() ? "" : " matching " + labelSelector);
    return informer;
  }

  /**
   * Reports changes, not the first list: the objects of the first list (by key and resourceVersion)
   * are known once it is done, and their additions, which arrive on the informer's own thread,
   * possibly later, are left out.
   */
  private final class Changes implements ResourceEventHandler<GenericKubernetesResource> {
    private final String kind;
    private final Map<String, String> firstList = new ConcurrentHashMap<>();
    private volatile boolean listed;

    Changes(String kind) {
      this.kind = kind;
    }

    void listed(SharedIndexInformer<GenericKubernetesResource> informer) {
      informer.getStore().list().forEach(o -> firstList.put(key(o), version(o)));
      listed = true;
    }

    @Override
    public void onAdd(GenericKubernetesResource object) {
      if (listed && !firstList.remove(key(object), version(object))) {
        report(object);
      }
    }

    @Override
    public void onUpdate(GenericKubernetesResource older, GenericKubernetesResource newer) {
      if (!Objects.equals(version(older), version(newer))) {
        report(newer);
      }
    }

    @Override
    public void onDelete(GenericKubernetesResource object, boolean finalStateUnknown) {
      report(object);
    }

    private void report(GenericKubernetesResource object) {
      listener.accept(kind, NamespacedName.of(object));
    }

    private String key(GenericKubernetesResource object) {
      return NamespacedName.of(object).toString();
    }

    private String version(GenericKubernetesResource object) {
      String version = object.getMetadata().getResourceVersion();
      return version == null ? "" : version;
    }
  }

  @Override
  public synchronized void close() {
    informers.forEach(SharedIndexInformer::close);
    informers.clear();
    client.close();
  }
}
