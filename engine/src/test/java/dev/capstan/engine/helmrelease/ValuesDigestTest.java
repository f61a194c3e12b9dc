package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.kube.BoundedYaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Values written and digested as Helm's encoder and Flux's digest do: each fixture
 * (resources/helmrelease/values-digest) holds values, the YAML Go's sigs.k8s.io/yaml wrote for them
 * ({@code .encoded}) and its digest ({@code .digest}), both produced by Helm's encoder itself.
 */
class ValuesDigestTest {

  @ParameterizedTest
  @ValueSource(strings = {"empty", "podinfo", "scalars", "styles", "yaml11"})
  void encodesAndDigestsAsHelmDoes(String name) throws Exception {
    Map<String, Object> values =
        ValuesComposition.mutableMap(
            (Map<?, ?>)
                new BoundedYaml(Long.MAX_VALUE, new HelmYamlSchema())
                    .readOne(read(name + ".yaml")));

    assertEquals(read(name + ".encoded"), ValuesDigest.encoded(values));
    assertEquals(read(name + ".digest").strip(), ValuesDigest.of(values));
  }

  private static String read(String name) throws IOException {
    try (InputStream in =
        ValuesDigestTest.class.getResourceAsStream("/helmrelease/values-digest/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
