package dev.capstan.engine.helmrelease;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.api.helm.ValuesReference;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A HelmRelease's values composed from fixtures (resources/helmrelease/values): the ConfigMaps and
 * Secrets a case holds, its valuesFrom and values, and the values or the error it must give.
 */
class ValuesCompositionTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  static Stream<String> cases() {
    return Stream.of(
        "order-and-inline",
        "target-path",
        "optional",
        "missing-object",
        "missing-key",
        "not-a-mapping",
        "not-yaml",
        "comma-at-target-path",
        "yaml-1-1");
  }

  @ParameterizedTest
  @MethodSource("cases")
  void composesAsTheFixtureSays(String name) throws Exception {
    JsonNode fixture = fixture(name);
    Objects objects = new Objects(fixture.get("objects"));
    ValuesComposition composition = new ValuesComposition(objects, 1 << 20, 10_000);
    List<ValuesReference> references =
        YAML.convertValue(
            fixture.get("valuesFrom"),
            YAML.getTypeFactory().constructCollectionType(List.class, ValuesReference.class));

    if (fixture.has("expect")) {
      Map<String, Object> composed = composition.compose("apps", references, fixture.get("values"));
      assertEquals(YAML.convertValue(fixture.get("expect"), Map.class), normalized(composed));
      return;
    }
    ValuesFailure failure =
        assertThrows(
            ValuesFailure.class,
            () -> composition.compose("apps", references, fixture.get("values")));
    if (fixture.has("error")) {
      assertEquals(fixture.get("error").asText(), failure.getMessage());
    } else {
      assertTrue(
          failure.getMessage().startsWith(fixture.get("errorStart").asText()),
          failure.getMessage());
    }
    assertFalse(failure.getMessage().contains("hunter2"), "a value is never echoed");
  }

  @Test
  void eachObjectIsReadOnceHoweverManyEntriesNameIt() throws Exception {
    Objects objects = new Objects(fixture("target-path").get("objects"));
    List<ValuesReference> references =
        List.of(
            new ValuesReference(ValuesReference.Kind.Secret, "creds", "port", "a", null, null),
            new ValuesReference(ValuesReference.Kind.Secret, "creds", "zero", "b", null, null),
            new ValuesReference(ValuesReference.Kind.Secret, "gone", null, null, null, true),
            new ValuesReference(ValuesReference.Kind.Secret, "gone", "x", null, null, true));

    new ValuesComposition(objects, 1 << 20, 10_000).compose("apps", references, null);

    assertEquals(List.of("Secret apps/creds", "Secret apps/gone"), objects.reads);
  }

  @Test
  void whatCameFromSecretsIsKeptToRedactButNotWhatCameFromConfigMaps() throws Exception {
    Map<String, byte[]> data =
        Map.of(
            "values.yaml",
            "db:\n  password: s3cr3t-db-password\n  hosts: [db-host-one]\n".getBytes(UTF_8),
            "token",
            "tok-9f8e7d6c5b".getBytes(UTF_8));
    ValuesComposition composition =
        new ValuesComposition((kind, ns, name) -> Optional.of(data), 1 << 20, 10_000);
    List<ValuesReference> fromSecret =
        List.of(
            new ValuesReference(ValuesReference.Kind.Secret, "creds", null, null, null, null),
            new ValuesReference(ValuesReference.Kind.Secret, "creds", "token", "a.b", null, null));

    ValuesComposition.Composed secret = composition.composed("apps", fromSecret, null);
    ValuesComposition.Composed configMap =
        composition.composed(
            "apps",
            List.of(
                new ValuesReference(
                    ValuesReference.Kind.ConfigMap, "plain", null, null, null, null)),
            null);

    assertEquals(
        "*** *** ***",
        secret.fromSecrets().redact("s3cr3t-db-password db-host-one tok-9f8e7d6c5b"));
    assertEquals("tok-9f8e7d6c5b", ((Map<?, ?>) secret.values().get("a")).get("b"));
    assertTrue(configMap.fromSecrets().isEmpty());
  }

  @Test
  void valuesLargerThanTheBoundAreRefusedByObjectAndKey() throws Exception {
    Objects objects = new Objects(fixture("order-and-inline").get("objects"));
    List<ValuesReference> references =
        List.of(
            new ValuesReference(ValuesReference.Kind.ConfigMap, "base", null, null, null, null),
            new ValuesReference(
                ValuesReference.Kind.Secret, "prod", "override.yaml", null, null, null));

    ValuesFailure failure =
        assertThrows(
            ValuesFailure.class,
            () -> new ValuesComposition(objects, 80, 10_000).compose("apps", references, null));

    assertEquals(
        "could not resolve Secret chart values reference 'apps/prod' with key 'override.yaml':"
            + " values from valuesFrom exceed 80 bytes",
        failure.getMessage());
  }

  @Test
  void aDocumentOfMoreNodesThanTheBoundIsRefused() throws Exception {
    Objects objects = new Objects(fixture("order-and-inline").get("objects"));
    List<ValuesReference> references =
        List.of(
            new ValuesReference(ValuesReference.Kind.ConfigMap, "base", null, null, null, null));

    ValuesFailure failure =
        assertThrows(
            ValuesFailure.class,
            () -> new ValuesComposition(objects, 1 << 20, 5).compose("apps", references, null));

    assertTrue(
        failure
            .getMessage()
            .startsWith(
                "could not resolve ConfigMap chart values reference"
                    + " 'apps/base' with key 'values.yaml': failed to read values data"),
        failure.getMessage());
  }

  @Test
  void withoutReferencesTheInlineValuesAreTheValues() throws Exception {
    Map<String, Object> composed =
        new ValuesComposition(new Objects(null), 1 << 20, 10_000)
            .compose("apps", List.of(), YAML.readTree("{a: {b: 1}}"));

    assertEquals(Map.of("a", Map.of("b", 1)), composed);
    assertEquals(
        Map.of(),
        new ValuesComposition(new Objects(null), 1 << 20, 10_000)
            .compose("apps", List.of(), NullNode.getInstance()));
  }

  /** Numbers compared by value, as the fixture's parser and the composition type them apart. */
  private static Object normalized(Object value) throws IOException {
    return YAML.readValue(YAML.writeValueAsString(value), Object.class);
  }

  private static JsonNode fixture(String name) throws IOException {
    try (InputStream in =
        ValuesCompositionTest.class.getResourceAsStream("/helmrelease/values/" + name + ".yaml")) {
      return YAML.readTree(in);
    }
  }

  /** The objects of a fixture, by kind and name; records which it was asked for. */
  private static final class Objects implements ValuesSource {
    private final Map<String, Map<String, byte[]>> byName = new HashMap<>();
    private final List<String> reads = new ArrayList<>();

    Objects(JsonNode objects) {
      if (objects == null) {
        return;
      }
      for (JsonNode object : objects) {
        Map<String, byte[]> data = new LinkedHashMap<>();
        object
            .get("data")
            .fields()
            .forEachRemaining(
                e -> data.put(e.getKey(), e.getValue().asText().getBytes(StandardCharsets.UTF_8)));
        byName.put(object.get("kind").asText() + "/" + object.get("name").asText(), data);
      }
    }

    @Override
    public Optional<Map<String, byte[]>> data(
        ValuesReference.Kind kind, String namespace, String name) {
      reads.add(kind + " " + namespace + "/" + name);
      return Optional.ofNullable(byName.get(kind + "/" + name));
    }
  }
}
