package dev.capstan.engine.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.lang.reflect.Constructor;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ReconcileTasksTest {

  private final Function<Runnable, String> namespaces = ReconcileTasks.namespaces();

  @Test
  void theFrameworkOfThisBuildNamesTheResourceOfEachReconcileTask() {
    // If an upgrade of java-operator-sdk moves the field, fairness would silently be lost.
    assertTrue(ReconcileTasks.readable());
  }

  @Test
  void aReconcileTaskIsInTheLaneOfItsResourcesNamespace() throws Exception {
    assertEquals("tenant-a", namespaces.apply(frameworkTask(new ResourceID("app", "tenant-a"))));
    assertEquals("tenant-b", namespaces.apply(frameworkTask(new ResourceID("app", "tenant-b"))));
  }

  @Test
  void aClusterScopedResourceOrAnotherTaskIsInTheLaneOfNoNamespace() throws Exception {
    assertEquals(
        ReconcileTasks.NO_NAMESPACE,
        namespaces.apply(frameworkTask(new ResourceID("cluster-wide"))));
    assertEquals(ReconcileTasks.NO_NAMESPACE, namespaces.apply(() -> {}));
  }

  /** The framework's own task class, made as its event processor makes it (never run here). */
  private static Runnable frameworkTask(ResourceID id) throws Exception {
    Class<?> type = Class.forName(ReconcileTasks.TASK_CLASS);
    Constructor<?> constructor = type.getDeclaredConstructors()[0];
    constructor.setAccessible(true);
    Object[] args = new Object[constructor.getParameterCount()];
    for (int i = 0; i < args.length; i++) {
      if (constructor.getParameterTypes()[i] == ResourceID.class) {
        args[i] = id;
      }
    }
    return (Runnable) constructor.newInstance(args);
  }
}
