package dev.capstan.engine.controller;

import dev.capstan.engine.core.NamespacedName;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import java.util.Set;

/**
 * Starts a reconcile of a Kustomization, a HelmRelease or a HelmChart when something outside the
 * framework asks (the health monitor; a source stored again without a new revision).
 */
final class WakeUpEventSource<P extends HasMetadata> extends AbstractEventSource<P, P> {

  WakeUpEventSource(Class<P> type) {
    super(type, "wake-up");
  }

  @Override
  public Set<P> getSecondaryResources(P primary) {
    return Set.of(); // only events, no cached objects
  }

  void wake(NamespacedName key) {
    if (isRunning()) {
      getEventHandler().handleEvent(new Event(new ResourceID(key.name(), key.namespace())));
    }
  }
}
