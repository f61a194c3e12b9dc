package dev.capstan.engine.controller;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.core.NamespacedName;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import java.util.Set;

/**
 * Starts a reconcile of a Kustomization when something outside the framework asks (the health
 * monitor).
 */
final class WakeUpEventSource extends AbstractEventSource<Kustomization, Kustomization> {

  WakeUpEventSource() {
    super(Kustomization.class, "health-wake-up");
  }

  @Override
  public Set<Kustomization> getSecondaryResources(Kustomization primary) {
    return Set.of(); // only events, no cached objects
  }

  void wake(NamespacedName key) {
    if (isRunning()) {
      getEventHandler().handleEvent(new Event(new ResourceID(key.name(), key.namespace())));
    }
  }
}
