package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryCredentialsTest {

  private static Map<String, byte[]> secret(String json) {
    return Map.of(".dockerconfigjson", json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsAuthOrUsernameAndPasswordByHost() {
    String auth = Base64.getEncoder().encodeToString("me:p@ss:word".getBytes());
    var secrets =
        List.of(
            secret(
                "{\"auths\":{\"https://other.io/v1/\":{\"username\":\"o\",\"password\":\"x\"}}}"),
            secret("{\"auths\":{\"registry.example:5000\":{\"auth\":\"" + auth + "\"}}}"));
    RegistryCredentials found =
        RegistryCredentials.forRegistry("registry.example:5000", secrets).orElseThrow();
    assertEquals("me", found.username());
    assertEquals("p@ss:word", found.password());
    assertEquals(
        "o", RegistryCredentials.forRegistry("other.io", secrets).orElseThrow().username());
    assertFalse(RegistryCredentials.forRegistry("third.io", secrets).isPresent());
    assertFalse(found.toString().contains("p@ss"));
  }

  @Test
  void refusesASecretThatIsNoDockerConfig() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () ->
                RegistryCredentials.forRegistry(
                    "r", List.of(Map.of("username", "u".getBytes(StandardCharsets.UTF_8)))));
    assertEquals(FailureReason.INVALID_SECRET, e.reason());
    assertThrows(
        SourceException.class,
        () -> RegistryCredentials.forRegistry("r", List.of(secret("{\"auths\":[]}"))));
  }

  @Test
  void parsesChallenges() {
    BearerChallenge bearer =
        BearerChallenge.parse(
                "Bearer realm=\"https://auth.example/token\","
                    + "service=\"reg\",scope=\"repository:a:pull\"")
            .orElseThrow();
    assertEquals("https://auth.example/token", bearer.realm());
    assertEquals("reg", bearer.service());
    assertEquals(true, BearerChallenge.parse("Basic realm=\"r\"").orElseThrow().isBasic());
    assertFalse(BearerChallenge.parse("Negotiate").isPresent());
  }
}
