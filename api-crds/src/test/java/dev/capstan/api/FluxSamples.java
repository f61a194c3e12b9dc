package dev.capstan.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Flux's own sample objects (src/test/resources/flux-v1.9.4 and flux-source-v1.9.1) as Capstan
 * takes them: the API groups changed and nothing else, except what a test namespace needs
 * (namespace and a unique name) and the required fields the documentation leaves out for brevity.
 */
final class FluxSamples {
  /** The docs elide fields with a line "... # other fields omitted": not YAML, dropped. */
  private static final Pattern ELISION = Pattern.compile("(?m)^\\s*\\.\\.\\..*$\\n?");

  /** By kind, the required spec fields (as Flux's CRDs require them) and the values filled in. */
  private static final Map<String, Map<String, Object>> REQUIRED =
      Map.of(
          "Kustomization",
          Map.of(
              "interval",
              "10m",
              "prune",
              true,
              "sourceRef",
              Map.of("kind", "GitRepository", "name", "example")),
          "GitRepository",
          Map.of("interval", "10m", "url", "https://github.com/stefanprodan/podinfo"),
          "OCIRepository",
          Map.of("interval", "10m", "url", "oci://ghcr.io/stefanprodan/manifests/podinfo"),
          "Bucket",
          Map.of("interval", "10m", "bucketName", "podinfo", "endpoint", "minio.example.com"),
          "HelmRepository",
          Map.of("url", "https://stefanprodan.github.io/podinfo"));

  private FluxSamples() {}

  /** The objects of a sample file (a test resource path such as {@code flux-v1.9.4/x.yaml}). */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> read(String resource) {
    String text;
    try (InputStream in = FluxSamples.class.getResourceAsStream("/" + resource)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Map<String, Object>> objects = new ArrayList<>();
    for (Object doc : new Yaml(new LoaderOptions()).loadAll(ELISION.matcher(text).replaceAll(""))) {
      if (doc instanceof Map<?, ?> map) {
        objects.add((Map<String, Object>) map);
      }
    }
    return objects;
  }

  /**
   * A sample under Capstan's groups, in {@code namespace}, named uniquely by {@code index}; one
   * that leaves out a field its kind requires (a Kustomization's interval, prune or sourceRef, a
   * GitRepository's url...) gets it (the fields filled in are added to {@code filled}).
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> capstan(
      Map<String, Object> flux, String namespace, int index, TreeSet<String> filled) {
    Map<String, Object> object = regroup(flux);
    Map<String, Object> metadata =
        new LinkedHashMap<>((Map<String, Object>) object.get("metadata"));
    String name = String.valueOf(metadata.get("name")).replaceAll("[^a-z0-9.-]", "");
    metadata.put("name", (name.isEmpty() ? "example" : name) + "-" + index);
    metadata.put("namespace", namespace);
    object.put("metadata", metadata);
    Map<String, Object> required = REQUIRED.get(String.valueOf(object.get("kind")));
    if (required != null) {
      Map<String, Object> spec =
          new LinkedHashMap<>(
              object.get("spec") == null ? Map.of() : (Map<String, Object>) object.get("spec"));
      required.forEach(
          (field, value) -> {
            if (!spec.containsKey(field)) {
              spec.put(field, value);
              filled.add("spec." + field);
            }
          });
      object.put("spec", spec);
    }
    return object;
  }

  /** The same object with Flux's API groups replaced by Capstan's, at every depth. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> regroup(Map<String, Object> flux) {
    Map<String, Object> out = new LinkedHashMap<>();
    flux.forEach(
        (key, value) -> {
          if (value instanceof Map<?, ?> map) {
            out.put(key, regroup((Map<String, Object>) map));
          } else if ("apiVersion".equals(key) && value instanceof String version) {
            out.put(
                key,
                version
                    .replace("kustomize.toolkit.fluxcd.io/", "kustomize.capstan.dev/")
                    .replace("source.toolkit.fluxcd.io/", "source.capstan.dev/"));
          } else {
            out.put(key, value);
          }
        });
    return out;
  }

  /**
   * The paths (dot-separated, list items as {@code []}) in {@code expected} whose values {@code
   * actual} does not have.
   */
  @SuppressWarnings("unchecked")
  static List<String> missing(Object expected, Object actual, String path) {
    List<String> out = new ArrayList<>();
    if (expected instanceof Map<?, ?> want) {
      Map<String, Object> have = actual instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
      want.forEach((k, v) -> out.addAll(missing(v, have.get(k), path + "." + k)));
    } else if (expected instanceof List<?> want) {
      List<Object> have = actual instanceof List<?> l ? (List<Object>) l : List.of();
      for (int i = 0; i < want.size(); i++) {
        out.addAll(missing(want.get(i), i < have.size() ? have.get(i) : null, path + "[]"));
      }
    } else if (!same(expected, actual)) {
      out.add(path);
    }
    return out;
  }

  /** Equal values; numbers by value (the API server may read an integer back as a long). */
  private static boolean same(Object expected, Object actual) {
    if (expected instanceof Number a && actual instanceof Number b) {
      return a.doubleValue() == b.doubleValue();
    }
    return expected == null ? actual == null : expected.equals(actual);
  }
}
