package dev.capstan.engine.ops;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.AnyNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records Events from what the controllers write into status: the controllers stay free of event
 * code, and every status change (from this engine or a previous one) is reported once. Only the
 * replica that reconciles records (the leader, with leader election), and only for its shard.
 */
final class StatusEvents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StatusEvents.class);

  private final List<SharedIndexInformer<?>> informers;

  private StatusEvents(List<SharedIndexInformer<?>> informers) {
    this.informers = informers;
  }

  static StatusEvents start(KubernetesClient client, Optional<String> labelSelector, EventRecorder recorder,
      BooleanSupplier active) {
    SharedIndexInformer<Kustomization> kustomizations = inform(client.resources(Kustomization.class).inAnyNamespace(),
        labelSelector, recorder, active, StatusTransitions::kustomization);
    SharedIndexInformer<GitRepository> sources = inform(client.resources(GitRepository.class).inAnyNamespace(),
        labelSelector, recorder, active, StatusTransitions::gitRepository);
    return new StatusEvents(List.of(kustomizations, sources));
  }

  private static <T extends HasMetadata, L extends KubernetesResourceList<T>> SharedIndexInformer<T> inform(
      AnyNamespaceOperation<T, L, Resource<T>> resources, Optional<String> labelSelector, EventRecorder recorder,
      BooleanSupplier active, BiFunction<T, T, List<StatusTransitions.Notice>> transitions) {
    ResourceEventHandler<T> handler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        // Objects already there at start were reported by whoever reconciled them.
      }

      @Override
      public void onUpdate(T older, T newer) {
        if (!active.getAsBoolean()) {
          return;
        }
        try {
          for (StatusTransitions.Notice notice : transitions.apply(older, newer)) {
            recorder.record(newer, notice.type(), notice.reason(), notice.message());
          }
        } catch (RuntimeException e) {
          LOG.warn("could not derive events for {}/{}: {}", newer.getMetadata().getNamespace(),
              newer.getMetadata().getName(), e.toString());
        }
      }

      @Override
      public void onDelete(T object, boolean deletedFinalStateUnknown) {}
    };
    return labelSelector.filter(s -> !s.isBlank())
        .map(s -> resources.withLabelSelector(s).inform(handler, 0))
        .orElseGet(() -> resources.inform(handler, 0));
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }
}
