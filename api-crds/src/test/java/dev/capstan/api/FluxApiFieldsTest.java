package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.testing.RepoRoot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Every field of Flux's v1 APIs (kustomize-controller v1.9.4, source-controller v1.9.1) is in
 * Capstan's generated CRD, as written to deploy/crds, with Flux's default and enum, but for the
 * differences the module README lists. Flux's fields are in {@code flux-schema/<plural>.txt}: a
 * schema path a line ({@code []} steps into a list's items), then its default and enum as JSON.
 */
class FluxApiFieldsTest {
  /** A README bullet: {@code - **Kind** `path`, `path`: why}. */
  private static final Pattern DIFFERENCE =
      Pattern.compile("^- \\*\\*(\\w+)\\*\\* ((?:`[^`]+`(?:, )?)+):");

  private static final Pattern PATH = Pattern.compile("`([^`]+)`");

  @ParameterizedTest
  @CsvSource({
    "Kustomization, kustomize.capstan.dev_kustomizations.yaml",
    "GitRepository, source.capstan.dev_gitrepositories.yaml",
    "OCIRepository, source.capstan.dev_ocirepositories.yaml",
    "HelmRepository, source.capstan.dev_helmrepositories.yaml",
    "Bucket, source.capstan.dev_buckets.yaml",
    "HelmChart, source.capstan.dev_helmcharts.yaml",
    "ExternalArtifact, source.capstan.dev_externalartifacts.yaml",
    "HelmRelease, helm.capstan.dev_helmreleases.yaml"
  })
  void everyFieldOfFluxsSchemaIsInTheCrdWithItsDefaultAndEnumOrIsAListedDifference(
      String kind, String crdFile) throws IOException {
    Map<String, Object> schema = schema(crdFile);
    String plural =
        crdFile.substring(crdFile.indexOf('_') + 1, crdFile.length() - ".yaml".length());
    Set<String> differences = new TreeSet<>();
    for (FluxField field : fluxFields(plural)) {
      Map<String, Object> node = node(schema, field.path());
      if (node == null
          || !Objects.equals(field.defaultValue(), node.get("default"))
          || !Objects.equals(field.enumValues(), sorted(node.get("enum")))) {
        differences.add(field.path());
      }
    }
    assertEquals(listedDifferences(kind), differences, kind + ": differences from Flux's schema");
  }

  private record FluxField(String path, Object defaultValue, List<String> enumValues) {}

  private static List<FluxField> fluxFields(String plural) throws IOException {
    List<FluxField> fields = new ArrayList<>();
    String resource = "/flux-schema/" + plural + ".txt";
    try (InputStream in = FluxApiFieldsTest.class.getResourceAsStream(resource)) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          fields.add(field(line));
        }
      }
    }
    return fields;
  }

  private static FluxField field(String line) {
    String[] words = line.split(" ");
    Object defaultValue = null;
    List<String> enumValues = null;
    for (int i = 1; i < words.length; i++) {
      if (words[i].startsWith("default=")) {
        defaultValue = json(words[i].substring("default=".length()));
      } else if (words[i].startsWith("enum=")) {
        enumValues = sorted(json(words[i].substring("enum=".length())));
      }
    }
    return new FluxField(words[0], defaultValue, enumValues);
  }

  private static Object json(String text) {
    return new Yaml(new LoaderOptions()).load(text);
  }

  private static List<String> sorted(Object values) {
    if (!(values instanceof List<?> list)) {
      return null;
    }
    return list.stream().map(String::valueOf).sorted().toList();
  }

  /** The paths the README's bullets name for {@code kind}. */
  private static Set<String> listedDifferences(String kind) throws IOException {
    Set<String> listed = new TreeSet<>();
    for (String line : Files.readAllLines(RepoRoot.find().resolve("api-crds/README.md"))) {
      Matcher bullet = DIFFERENCE.matcher(line);
      if (bullet.find() && bullet.group(1).equals(kind)) {
        Matcher path = PATH.matcher(bullet.group(2));
        while (path.find()) {
          listed.add(path.group(1));
        }
      }
    }
    return listed;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> schema(String file) throws IOException {
    Path crd = RepoRoot.find().resolve("deploy/crds").resolve(file);
    try (InputStream in = Files.newInputStream(crd)) {
      Map<String, Object> doc = new Yaml(new LoaderOptions()).load(in);
      Map<String, Object> spec = (Map<String, Object>) doc.get("spec");
      Map<String, Object> version = ((List<Map<String, Object>>) spec.get("versions")).get(0);
      return (Map<String, Object>)
          ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
    }
  }

  /** The schema node at {@code path}, or null when the CRD has no such field. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> node(Map<String, Object> schema, String path) {
    Map<String, Object> node = schema;
    for (String step : path.split("\\.")) {
      boolean list = step.endsWith("[]");
      Map<String, Object> properties = (Map<String, Object>) node.get("properties");
      Object child =
          properties == null
              ? null
              : properties.get(list ? step.substring(0, step.length() - 2) : step);
      if (!(child instanceof Map<?, ?>)) {
        return null;
      }
      node = (Map<String, Object>) child;
      if (list) {
        node = (Map<String, Object>) node.get("items");
        if (node == null) {
          return null;
        }
      }
    }
    return node;
  }
}
