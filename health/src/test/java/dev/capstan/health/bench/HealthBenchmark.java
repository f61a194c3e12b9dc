package dev.capstan.health.bench;

import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.LibraryCases;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Throughput of single-object status (kstatus, generic, CEL), of a 10,000-object aggregate, and of
 * the built-in library over every example written for it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class HealthBenchmark {
  private HealthEvaluator evaluator;
  private Map<String, Object> deployment;
  private Map<String, Object> genericResource;
  private Map<String, Object> certificate;
  private Map<String, Object> gadget;
  private List<Map<String, Object>> tenThousand;
  private List<Map<String, Object>> libraryExamples;

  @Setup
  public void setUp() {
    List<HealthCheckExpr> exprs =
        List.of(
            new HealthCheckExpr(
                "bench.capstan.dev/v1",
                "Certificate",
                "status.conditions.filter(e, e.type == 'Ready').all(e, e.observedGeneration =="
                    + " metadata.generation && e.status == 'True')",
                "status.conditions.filter(e, e.type == 'Issuing').all(e, e.observedGeneration =="
                    + " metadata.generation && e.status == 'True')",
                "status.conditions.filter(e, e.type == 'Ready').all(e, e.observedGeneration =="
                    + " metadata.generation && e.status == 'False')"),
            new HealthCheckExpr(
                "bench.capstan.dev/v1",
                "Gadget",
                "status.conditions.filter(e, e.type == 'Ready').all(e, e.observedGeneration =="
                    + " metadata.generation && e.status == 'True')",
                "",
                ""));
    evaluator = HealthEvaluator.create(exprs, BuiltinLibrary.load(), Clock.systemUTC());
    deployment = deployment("web", 3);
    genericResource = generic("widget");
    certificate = certificate("tls");
    gadget = certificate("gadget");
    gadget.put("kind", "Gadget");
    tenThousand = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      switch (i % 3) {
        case 0 -> tenThousand.add(deployment("web-" + i, 1 + i % 5));
        case 1 -> tenThousand.add(generic("widget-" + i));
        default -> tenThousand.add(certificate("tls-" + i));
      }
    }
    libraryExamples = LibraryCases.load().stream().map(LibraryCases.Case::object).toList();
  }

  @Benchmark
  public ResourceStatus deploymentStatus() {
    return evaluator.status(deployment);
  }

  @Benchmark
  public ResourceStatus genericResourceStatus() {
    return evaluator.status(genericResource);
  }

  @Benchmark
  public ResourceStatus celCheckedStatus() {
    return evaluator.status(certificate);
  }

  /** One CEL expression per object: the cost of a single CEL evaluation through the public API. */
  @Benchmark
  public ResourceStatus celSingleExpressionStatus() {
    return evaluator.status(gadget);
  }

  @Benchmark
  public AggregateHealth aggregateTenThousand() {
    return evaluator.aggregate(tenThousand);
  }

  /**
   * One operation is the status of every object under {@code library/} (healthy, progressing and
   * failed objects of each built-in entry's kind): what the library's expressions cost.
   */
  @Benchmark
  public int builtinLibraryExamples() {
    int current = 0;
    for (Map<String, Object> example : libraryExamples) {
      current += evaluator.status(example).status() == Status.Current ? 1 : 0;
    }
    return current;
  }

  private static Map<String, Object> deployment(String name, long replicas) {
    Map<String, Object> status = new HashMap<>();
    status.put("observedGeneration", 4L);
    status.put("replicas", replicas);
    status.put("updatedReplicas", replicas);
    status.put("readyReplicas", replicas);
    status.put("availableReplicas", replicas);
    status.put(
        "conditions",
        List.of(
            condition("Available", "True", "MinimumReplicasAvailable"),
            condition("Progressing", "True", "NewReplicaSetAvailable")));
    return object(
        "apps/v1",
        "Deployment",
        name,
        Map.of("replicas", replicas, "progressDeadlineSeconds", 600L),
        status);
  }

  private static Map<String, Object> generic(String name) {
    Map<String, Object> status = new HashMap<>();
    status.put("observedGeneration", 4L);
    status.put("conditions", List.of(condition("Ready", "True", "Succeeded")));
    return object("example.com/v1", "Widget", name, Map.of("size", 3L), status);
  }

  private static Map<String, Object> certificate(String name) {
    Map<String, Object> ready = new HashMap<>(condition("Ready", "True", "Ready"));
    ready.put("observedGeneration", 4L);
    Map<String, Object> issuing = new HashMap<>(condition("Issuing", "False", "Done"));
    issuing.put("observedGeneration", 4L);
    Map<String, Object> status = new HashMap<>();
    status.put("conditions", List.of(issuing, ready));
    return object("bench.capstan.dev/v1", "Certificate", name, Map.of("secretName", name), status);
  }

  private static Map<String, Object> condition(String type, String status, String reason) {
    return Map.of(
        "type", type, "status", status, "reason", reason, "message", type + " is " + status);
  }

  private static Map<String, Object> object(
      String apiVersion,
      String kind,
      String name,
      Map<String, Object> spec,
      Map<String, Object> status) {
    Map<String, Object> object = new HashMap<>();
    object.put("apiVersion", apiVersion);
    object.put("kind", kind);
    object.put("metadata", Map.of("name", name, "namespace", "default", "generation", 4L));
    object.put("spec", spec);
    object.put("status", status);
    return object;
  }
}
