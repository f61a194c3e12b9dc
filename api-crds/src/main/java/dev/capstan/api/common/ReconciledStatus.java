package dev.capstan.api.common;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * What the status of every kind Capstan reconciles holds, under Flux's names: the generation it
 * answers, its conditions, and the last reconcile request it handled.
 */
public interface ReconciledStatus {

  Long observedGeneration();

  List<Condition> conditions();

  String lastHandledReconcileAt();
}
