package dev.capstan.engine.fairness;

import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.lang.reflect.Field;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespace of a reconcile task the controller framework hands its executor, as a lane of
 * {@link FairExecutor}.
 *
 * <p>java-operator-sdk lets the engine supply the reconcile executor ({@code
 * ConfigurationServiceOverrider.withExecutorService}) but hands it each reconcile as an instance of
 * a private class, {@code EventProcessor$ReconcilerExecutor}, with no accessor, no {@code toString}
 * and no interface naming the resource it reconciles: the only record of it is the task's private
 * field {@code resourceID}. That field is read here, found once; if a version of the framework has
 * it no longer, every task falls in one lane (first-in first-out, as the framework's own pool) and
 * a warning says so. {@code ReconcileTasksTest} pins the field on the framework this engine is
 * built with, so that an upgrade that moves it fails a test.
 *
 * <p>Which controller a task is of is read the same way: the task is an inner class of the
 * controller's event processor, which holds the controller's configuration (public API, {@code
 * ControllerConfiguration.getName()}); both fields are found by their type. If they cannot be
 * found, no task is told to be a source's, and a warning says so.
 */
public final class ReconcileTasks {

  static final String TASK_CLASS =
      "io.javaoperatorsdk.operator.processing.event.EventProcessor$ReconcilerExecutor";
  static final String FIELD = "resourceID";

  /** The lane of a task that is not a reconcile, or whose resource is cluster-scoped. */
  public static final String NO_NAMESPACE = "";

  private static final Logger LOG = LoggerFactory.getLogger(ReconcileTasks.class);

  private final Optional<Field> resourceId;

  private ReconcileTasks(Optional<Field> resourceId) {
    this.resourceId = resourceId;
  }

  /**
   * Whether a task is a reconcile of one of {@code controllers} (named as their {@code
   * ControllerConfiguration} names them); false for any other task.
   */
  public static Predicate<Runnable> ofControllers(Set<String> controllers) {
    Set<String> names = Set.copyOf(controllers);
    Optional<ControllerPath> path = ControllerPath.find();
    return task -> path.flatMap(p -> p.nameOf(task)).map(names::contains).orElse(false);
  }

  /** The task's event processor, then its controller's configuration. */
  private record ControllerPath(Field processor, Field configuration) {
    static Optional<ControllerPath> find() {
      try {
        Class<?> task = Class.forName(TASK_CLASS);
        Field processor = fieldOfType(task, task.getEnclosingClass());
        Field configuration = fieldOfType(processor.getType(), ControllerConfiguration.class);
        return Optional.of(new ControllerPath(processor, configuration));
      } catch (ReflectiveOperationException | RuntimeException e) {
        LOG.warn(
            "Reconciles cannot be told apart by controller ({}): a source's fetch waits behind"
                + " the other reconciles of its namespace",
            e.toString());
        return Optional.empty();
      }
    }

    Optional<String> nameOf(Runnable task) {
      if (!processor.getDeclaringClass().isInstance(task)) {
        return Optional.empty();
      }
      try {
        Object outer = processor.get(task);
        Object config = outer == null ? null : configuration.get(outer);
        return config instanceof ControllerConfiguration<?> c
            ? Optional.ofNullable(c.getName())
            : Optional.empty();
      } catch (IllegalAccessException e) {
        return Optional.empty();
      }
    }

    private static Field fieldOfType(Class<?> holder, Class<?> type) throws NoSuchFieldException {
      for (Field field : holder.getDeclaredFields()) {
        if (type != null && type.isAssignableFrom(field.getType())) {
          field.setAccessible(true);
          return field;
        }
      }
      throw new NoSuchFieldException(holder.getName() + " holds no " + type);
    }
  }

  /** The lanes of the framework's reconcile tasks: their resource's namespace. */
  public static Function<Runnable, String> namespaces() {
    return new ReconcileTasks(findField())::namespaceOf;
  }

  /** Whether tasks of the framework can be told apart; false puts all of them in one lane. */
  static boolean readable() {
    return findField().isPresent();
  }

  String namespaceOf(Runnable task) {
    if (resourceId.isEmpty() || !resourceId.get().getDeclaringClass().isInstance(task)) {
      return NO_NAMESPACE;
    }
    try {
      Object id = resourceId.get().get(task);
      return id instanceof ResourceID r ? r.getNamespace().orElse(NO_NAMESPACE) : NO_NAMESPACE;
    } catch (IllegalAccessException e) {
      return NO_NAMESPACE;
    }
  }

  private static Optional<Field> findField() {
    try {
      Field field = Class.forName(TASK_CLASS).getDeclaredField(FIELD);
      if (!ResourceID.class.equals(field.getType())) {
        throw new NoSuchFieldException(FIELD + " is a " + field.getType().getName());
      }
      field.setAccessible(true);
      return Optional.of(field);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn(
          "Reconciles cannot be told apart by namespace ({}): they run first-in first-out, and"
              + " a namespace with many queued can delay the others",
          e.toString());
      return Optional.empty();
    }
  }
}
