package dev.capstan.health;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.health.cel.BuiltinGuard;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckCompiler;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.HealthCheckRegistry;
import dev.capstan.health.cel.InvalidHealthCheckException;
import dev.capstan.health.cel.LazyHealthCheck;
import dev.capstan.health.kstatus.KstatusRules;
import dev.capstan.health.status.BadObjectException;
import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import dev.capstan.kube.ApiVersion;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The health of Kubernetes objects, computed without a cluster. For one object, in order:
 *
 * <ol>
 *   <li>{@code metadata.deletionTimestamp} set → Terminating;
 *   <li>a CEL check for its apiVersion/kind (a user's entry wins over the built-in library) → the
 *       healthCheckExprs rules;
 *   <li>the kstatus rule of its kind;
 *   <li>for other kinds, the generic layer: readiness, failure and progress conditions, condition
 *       generations, common status vocabularies (phase, state, health), else Current.
 * </ol>
 *
 * <p>Bad input never throws: an object that cannot be read is Unknown with a message naming the
 * field. Instances are immutable and thread-safe; user expressions are compiled at creation,
 * built-in ones on first use of their kind, and each only once.
 */
public final class HealthEvaluator {
  /** Annotation that leaves an object out of aggregates when its value is {@value #SKIP_VALUE}. */
  public static final String SKIP_ANNOTATION = "capstan.dev/health";

  public static final String SKIP_VALUE = "skip";

  /** The list name user entries are reported under in errors. */
  static final String USER_LIST_NAME = "healthchecks";

  private static final DecidedBy INPUT = new DecidedBy.None("unreadable object");

  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private final HealthCheckRegistry user;
  private final BuiltinLibrary library;
  private final KstatusRules kstatus;
  private final BuiltinGuard guard = new BuiltinGuard();
  private final ObjectMapper mapper = new ObjectMapper();

  private HealthEvaluator(HealthCheckRegistry user, BuiltinLibrary library, Clock clock) {
    this.user = user;
    this.library = library;
    this.kstatus = new KstatusRules(clock);
  }

  /** kstatus rules plus the built-in library, no user expressions, system clock. */
  public static HealthEvaluator withBuiltinLibrary() {
    return create(List.of(), BuiltinLibrary.load(), Clock.systemUTC());
  }

  /**
   * User expressions on top of kstatus, with or without the built-in library.
   *
   * @throws InvalidHealthCheckException if an entry is missing {@code current}, does not compile,
   *     or duplicates another entry's group/kind
   */
  public static HealthEvaluator create(List<HealthCheckExpr> userExprs, boolean builtin) {
    return create(
        userExprs, builtin ? BuiltinLibrary.load() : BuiltinLibrary.none(), Clock.systemUTC());
  }

  /**
   * The full form: user expressions, a (shared, already loaded) library and the clock used for
   * time-dependent rules (a Pod waits 15 seconds for the scheduler before it counts as Failed).
   */
  public static HealthEvaluator create(
      List<HealthCheckExpr> userExprs, BuiltinLibrary library, Clock clock) {
    return withChecks(
        new HealthCheckCompiler().compileAll(List.copyOf(userExprs), USER_LIST_NAME, false),
        library,
        clock);
  }

  /**
   * Checks the engine itself wrote (never a tenant's) on top of kstatus and {@code library}: only
   * their shape is checked now, and each compiles when an object of its kind is first evaluated, so
   * that an engine that never meets those kinds never builds the CEL environment.
   *
   * @throws InvalidHealthCheckException if an entry is missing its apiVersion or {@code current}
   */
  public static HealthEvaluator deferred(
      List<HealthCheckExpr> checks, BuiltinLibrary library, Clock clock) {
    return withChecks(
        new HealthCheckCompiler().deferAll(List.copyOf(checks), USER_LIST_NAME, false),
        library,
        clock);
  }

  private static HealthEvaluator withChecks(
      List<LazyHealthCheck> checks, BuiltinLibrary library, Clock clock) {
    Objects.requireNonNull(library, "library");
    Objects.requireNonNull(clock, "clock");
    return new HealthEvaluator(HealthCheckRegistry.forUser(checks, USER_LIST_NAME), library, clock);
  }

  /** The status of one object given as nested maps (as parsed from YAML or JSON). */
  public ResourceStatus status(Map<String, ?> object) {
    if (object == null) {
      return new ResourceStatus(Status.Unknown, "InvalidObject", "not an object", INPUT);
    }
    try {
      return evaluate(new ObjectView(object));
    } catch (BadObjectException e) {
      return new ResourceStatus(Status.Unknown, "InvalidObject", e.getMessage(), INPUT);
    } catch (RuntimeException e) {
      // A rule tripping over a shape no rule foresaw must not take the caller down.
      return new ResourceStatus(
          Status.Unknown, "InvalidObject", "cannot compute the status: " + e, INPUT);
    }
  }

  /** The status of a typed or generic fabric8 resource. */
  public ResourceStatus status(HasMetadata resource) {
    if (resource == null) {
      return status((Map<String, ?>) null);
    }
    return status(mapper.convertValue(resource, MAP));
  }

  /** The status of one object together with its identity. */
  public ResourceHealth health(Map<String, ?> object) {
    return new ResourceHealth(
        object == null ? ObjectRef.of("", "", "", "") : ObjectRef.of(object), status(object));
  }

  /** Whether a CEL check (user or built-in) decides the health of this apiVersion/kind. */
  public boolean coversKind(String apiVersion, String kind) {
    return findCheck(apiVersion, kind) != null;
  }

  /**
   * The health of a set of objects; objects annotated {@code capstan.dev/health: skip} are left
   * out.
   */
  public AggregateHealth aggregate(Collection<? extends Map<String, ?>> objects) {
    List<ResourceHealth> healths = new ArrayList<>(objects.size());
    for (Map<String, ?> object : objects) {
      if (!isSkipped(object)) {
        healths.add(health(object));
      }
    }
    return Aggregation.of(healths);
  }

  /** Whether the object carries the annotation that excludes it from aggregates. */
  public static boolean isSkipped(Map<String, ?> object) {
    return object != null
        && object.get("metadata") instanceof Map<?, ?> metadata
        && metadata.get("annotations") instanceof Map<?, ?> annotations
        && SKIP_VALUE.equals(annotations.get(SKIP_ANNOTATION));
  }

  private ResourceStatus evaluate(ObjectView object) {
    if (object.at("metadata", "deletionTimestamp") instanceof String deletion
        && !deletion.isEmpty()) {
      return new ResourceStatus(Status.Terminating, "", "Resource scheduled for deletion")
          .decidedBy(DecidedBy.kstatus(DecidedBy.KstatusRule.DELETION));
    }
    String apiVersion = object.string("", "apiVersion");
    String kind = object.string("", "kind");
    if (apiVersion.isEmpty() || kind.isEmpty()) {
      return new ResourceStatus(
          Status.Unknown,
          "InvalidObject",
          apiVersion.isEmpty() && kind.isEmpty()
              ? "missing apiVersion and kind"
              : apiVersion.isEmpty() ? "missing apiVersion" : "missing kind",
          INPUT);
    }
    LazyHealthCheck userCheck = user.find(apiVersion, kind);
    LazyHealthCheck check =
        userCheck != null ? userCheck : library.registry().find(apiVersion, kind);
    if (check != null) {
      DecidedBy rule = check.decidedBy(userCheck != null);
      try {
        ResourceStatus status = check.get().evaluate(object).decidedBy(rule);
        return userCheck == null ? guard.check(status, object, rule) : status;
      } catch (InvalidHealthCheckException e) {
        // Only a built-in entry can get here (user entries are compiled when loaded), and the
        // library's tests compile every entry; still, a broken entry must not break the caller.
        return new ResourceStatus(Status.Unknown, "InvalidHealthCheck", e.getMessage(), rule);
      }
    }
    return kstatus.evaluate(object, ApiVersion.of(apiVersion).group(), kind);
  }

  private LazyHealthCheck findCheck(String apiVersion, String kind) {
    LazyHealthCheck check = user.find(apiVersion, kind);
    return check != null ? check : library.registry().find(apiVersion, kind);
  }
}
