import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * How much heap a build's objects take once read, against the bytes of the JSON they were read
 * from: the factor AnswerBudget charges for an answer. Reads several shapes of answer (objects as
 * the apply benchmarks make them, Capstan's own CRDs, and shapes a hostile tenant would choose: a
 * list of empty maps, of one-letter strings, a map of distinct short keys) as the builder reads
 * them (into GenericKubernetesResource, Jackson's maps and lists below), keeps many copies and
 * prints the live heap they hold per byte of JSON, after full collections.
 *
 * <p>Usage: java -XX:+UseSerialGC -cp CLASSPATH ParsedSizeBench.java CRD_DIR (CLASSPATH: Jackson
 * databind and YAML, fabric8's kubernetes-model-core and -common).
 */
public final class ParsedSizeBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<GenericKubernetesResource>> OBJECTS =
      new TypeReference<>() {};

  public static void main(String[] args) throws Exception {
    measure("objects of the apply benchmarks", typical());
    measure("Capstan's CRDs", crds(Path.of(args[0])));
    measure("a list of empty maps", hostile(i -> "{}"));
    measure("a list of one-letter strings", hostile(i -> "\"a\""));
    measure("a list of empty lists", hostile(i -> "[]"));
    measure("a map of distinct short keys", distinctKeys());
  }

  private static void measure(String what, byte[] answer) throws Exception {
    int copies = Math.max(1, (int) ((64L << 20) / answer.length));
    List<Object> held = new ArrayList<>(copies);
    long before = live();
    for (int i = 0; i < copies; i++) {
      held.add(JSON.readValue(answer, OBJECTS));
    }
    long after = live();
    System.out.printf(
        "%-34s %8d bytes of JSON, %5.1f bytes of heap per byte (%d copies)%n",
        what, answer.length, (after - before) / (double) answer.length / copies, held.size());
  }

  private static long live() throws InterruptedException {
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(50);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** 1,000 objects in the shapes applier/bench/objects.sh makes them. */
  private static byte[] typical() {
    StringBuilder out = new StringBuilder("[");
    for (int i = 0; i < 250; i++) {
      String ns = "bench-" + (i % 10);
      out.append(
          """
          {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"config-%1$d",\
          "namespace":"%2$s","labels":{"app":"app-%1$d"}},"data":{"settings.yaml":\
          "level: info\\nreplicas: %1$d\\n","feature":"on"}},
          {"apiVersion":"v1","kind":"Secret","metadata":{"name":"secret-%1$d",\
          "namespace":"%2$s","labels":{"app":"app-%1$d"}},"type":"Opaque",\
          "data":{"password":"YmVuY2gtcGFzc3dvcmQtMQ=="}},
          {"apiVersion":"v1","kind":"Service","metadata":{"name":"svc-%1$d",\
          "namespace":"%2$s","labels":{"app":"app-%1$d"}},"spec":{"selector":{"app":"app-%1$d"},\
          "ports":[{"name":"http","port":80,"targetPort":8080,"protocol":"TCP"}]}},
          {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"app-%1$d",\
          "namespace":"%2$s","labels":{"app":"app-%1$d"}},"spec":{"replicas":1,\
          "selector":{"matchLabels":{"app":"app-%1$d"}},"template":{"metadata":{"labels":\
          {"app":"app-%1$d"}},"spec":{"containers":[{"name":"app","image":\
          "registry.example/app:1.%1$d","ports":[{"containerPort":8080}],"resources":\
          {"requests":{"cpu":"10m","memory":"16Mi"},"limits":{"memory":"64Mi"}}}]}}}},
          """
              .formatted(i, ns));
    }
    out.setLength(out.length() - 2);
    return out.append("]").toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Capstan's own CRDs, 20 copies of each, as JSON. */
  private static byte[] crds(Path dir) throws Exception {
    YAMLMapper yaml = new YAMLMapper();
    List<Object> crds = new ArrayList<>();
    try (var files = Files.list(dir)) {
      for (Path file : files.sorted().toList()) {
        Object crd = yaml.readValue(file.toFile(), Map.class);
        for (int i = 0; i < 20; i++) {
          crds.add(crd);
        }
      }
    }
    return JSON.writeValueAsBytes(crds);
  }

  /** One object whose spec is a list of 100,000 copies of an element. */
  private static byte[] hostile(IntFunction<String> element) {
    StringBuilder out =
        new StringBuilder(
            "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"h\"},"
                + "\"spec\":[");
    for (int i = 0; i < 100_000; i++) {
      out.append(i == 0 ? "" : ",").append(element.apply(i));
    }
    return out.append("]}]").toString().getBytes(StandardCharsets.UTF_8);
  }

  /** One object whose spec maps 100,000 distinct short keys to empty maps. */
  private static byte[] distinctKeys() {
    StringBuilder out =
        new StringBuilder(
            "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"h\"},"
                + "\"spec\":{");
    for (int i = 0; i < 100_000; i++) {
      out.append(i == 0 ? "" : ",").append('"').append(Integer.toString(i, 36)).append("\":{}");
    }
    return out.append("}}]").toString().getBytes(StandardCharsets.UTF_8);
  }
}
