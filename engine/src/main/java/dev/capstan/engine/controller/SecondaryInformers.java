package dev.capstan.engine.controller;

import dev.capstan.engine.cache.WithoutManagedFields;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;

/**
 * The informers by which a controller hears of the other objects it reads (a Kustomization's
 * sources and dependencies, a GitRepository's includes): each keeps its objects without managed
 * fields, maps a change to the primaries it concerns, and passes on only the updates that matter.
 */
final class SecondaryInformers {
  private SecondaryInformers() {}

  static <S extends HasMetadata, P extends HasMetadata> InformerEventSource<S, P> of(
      Class<S> watched,
      String name,
      SecondaryToPrimaryMapper<S> concerned,
      OnUpdateFilter<S> matters,
      EventSourceContext<P> context) {
    return new InformerEventSource<>(
        InformerEventSourceConfiguration.from(watched, context.getPrimaryResourceClass())
            .withName(name)
            .withItemStore(new WithoutManagedFields<>())
            .withSecondaryToPrimaryMapper(concerned)
            .withOnUpdateFilter(matters)
            .build(),
        context);
  }
}
