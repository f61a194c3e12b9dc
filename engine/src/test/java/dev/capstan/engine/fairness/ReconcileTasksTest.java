package dev.capstan.engine.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.controller.Controllers;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.util.function.Function;
import java.util.function.Predicate;
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

  @Test
  void aSourceControllersTaskIsToldApartFromAKustomizations() throws Exception {
    Predicate<Runnable> sources = ReconcileTasks.ofControllers(Controllers.sourceControllers());
    ResourceID id = new ResourceID("flux-system", "tenant-a");

    assertTrue(sources.test(frameworkTask(id, processorOf("gitrepository"))));
    assertTrue(sources.test(frameworkTask(id, processorOf("ocirepository"))));
    assertFalse(sources.test(frameworkTask(id, processorOf("kustomization"))));
    assertFalse(sources.test(frameworkTask(id, processorOf("helmrelease"))));
    assertFalse(sources.test(frameworkTask(id, null)));
    assertFalse(sources.test(() -> {}));
  }

  /** The framework's own task class, made as its event processor makes it (never run here). */
  private static Runnable frameworkTask(ResourceID id) throws Exception {
    return frameworkTask(id, null);
  }

  private static Runnable frameworkTask(ResourceID id, Object processor) throws Exception {
    Class<?> type = Class.forName(ReconcileTasks.TASK_CLASS);
    Constructor<?> constructor = type.getDeclaredConstructors()[0];
    constructor.setAccessible(true);
    Object[] args = new Object[constructor.getParameterCount()];
    for (int i = 0; i < args.length; i++) {
      Class<?> parameter = constructor.getParameterTypes()[i];
      if (parameter == ResourceID.class) {
        args[i] = id;
      } else if (parameter == type.getEnclosingClass()) {
        args[i] = processor;
      }
    }
    return (Runnable) constructor.newInstance(args);
  }

  /**
   * An event processor of the framework holding only a controller configuration named {@code name}:
   * made without its constructor, which needs a running controller.
   */
  private static Object processorOf(String name) throws Exception {
    Class<?> type = Class.forName(ReconcileTasks.TASK_CLASS).getEnclosingClass();
    Field unsafeField = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
    unsafeField.setAccessible(true);
    Object unsafe = unsafeField.get(null);
    Object processor =
        unsafe.getClass().getMethod("allocateInstance", Class.class).invoke(unsafe, type);
    Object config =
        Proxy.newProxyInstance(
            ControllerConfiguration.class.getClassLoader(),
            new Class<?>[] {ControllerConfiguration.class},
            (proxy, method, args) -> method.getName().equals("getName") ? name : null);
    for (Field field : type.getDeclaredFields()) {
      if (field.getType() == ControllerConfiguration.class) {
        field.setAccessible(true);
        field.set(processor, config);
      }
    }
    return processor;
  }
}
