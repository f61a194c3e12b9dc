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
import org.junit.jupiter.api.Test;

/**
 * What the engine does not support is refused by name before any Secret is read. A keyless check
 * with a trusted root of its own is verified (engine's OCIRepository IT, source-oci's
 * KeylessVerificationTest).
 */
class OciRequestsTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static OCIRepository fixture(String name) throws IOException {
    try (InputStream in =
        OciRequestsTest.class.getResourceAsStream("/oci-requests/trusted-root.yaml")) {
      List<OCIRepository> repos = YAML.readValue(in, new TypeReference<List<OCIRepository>>() {});
      return repos.stream().filter(r -> r.getMetadata().getName().equals(name)).findFirst().get();
    }
  }

  @Test
  void keylessVerificationAgainstThePublicSigstoreRootIsRefusedByName() throws IOException {
    SourceInputs.Unavailable refused = refused("keyless-public-root");
    assertEquals(FailureReason.INVALID_SPEC, refused.reason());
    assertTrue(
        refused.getMessage().startsWith("spec.verify needs secretRef, or for keyless verification"),
        refused.getMessage());
    assertTrue(refused.getMessage().contains("trusted_root.json"), refused.getMessage());
  }

  @Test
  void notationIsRefusedByName() throws IOException {
    SourceInputs.Unavailable refused = refused("notation");
    assertEquals(FailureReason.INVALID_SPEC, refused.reason());
    assertTrue(
        refused.getMessage().startsWith("spec.verify.provider 'notation' is not supported"),
        refused.getMessage());
  }

  private static SourceInputs.Unavailable refused(String name) throws IOException {
    OCIRepository repo = fixture(name);
    // No client: the refusal comes before anything is read from the cluster.
    return assertThrows(
        SourceInputs.Unavailable.class, () -> OciRequests.of(null, repo, "key", Optional.empty()));
  }
}
