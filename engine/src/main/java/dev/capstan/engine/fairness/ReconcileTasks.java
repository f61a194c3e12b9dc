package dev.capstan.engine.fairness;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.lang.reflect.Field;
import java.util.Optional;
import java.util.function.Function;
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
