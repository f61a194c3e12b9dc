package dev.capstan.engine.pipeline;

import dev.capstan.applier.ObjectRef;
import dev.capstan.engine.NamespacedName;
import dev.capstan.health.HealthEvaluator;
import java.util.List;

/** Keeps a Kustomization's Healthy condition true to the cluster between reconciles. */
public interface HealthTracking {

  HealthTracking NONE =
      new HealthTracking() {
        @Override
        public void track(NamespacedName key, List<ObjectRef> objects, HealthEvaluator evaluator) {}

        @Override
        public void untrack(NamespacedName key) {}
      };

  /** From now on, watch these objects (replacing what was watched for {@code key} before). */
  void track(NamespacedName key, List<ObjectRef> objects, HealthEvaluator evaluator);

  /** Stop watching the objects of {@code key}. */
  void untrack(NamespacedName key);
}
