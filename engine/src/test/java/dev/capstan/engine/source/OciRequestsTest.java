package dev.capstan.engine.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.source.core.FailureReason;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the engine does not support is refused by name before any Secret is read. */
class OciRequestsTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static OCIRepository fixture(String name) throws IOException {
    try (InputStream in =
        OciRequestsTest.class.getResourceAsStream("/oci-requests/trusted-root.yaml")) {
      List<OCIRepository> repos = YAML.readValue(in, new TypeReference<List<OCIRepository>>() {});
      return repos.stream().filter(r -> r.getMetadata().getName().equals(name)).findFirst().get();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"keyless", "keyed-with-trusted-root"})
  void aSigstoreTrustedRootIsRefusedByName(String name) throws IOException {
    OCIRepository repo = fixture(name);
    // No client: the refusal comes before anything is read from the cluster.
    SourceInputs.Unavailable refused =
        assertThrows(
            SourceInputs.Unavailable.class,
            () -> OciRequests.of(null, repo, "key", Optional.empty()));
    assertEquals(FailureReason.INVALID_SPEC, refused.reason());
    assertTrue(
        refused.getMessage().startsWith("spec.verify.trustedRootSecretRef is not supported"),
        refused.getMessage());
  }
}
