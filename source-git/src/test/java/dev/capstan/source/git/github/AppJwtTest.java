package dev.capstan.source.git.github;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPrivateKey;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class AppJwtTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  @Test
  void theTokenIsSignedWithTheAppsKeyAndIssuedByTheAppForLessThanTenMinutes() throws Exception {
    KeyPair app = rsa();
    String jwt = AppJwt.sign(4242, (RSAPrivateKey) app.getPrivate(), NOW);

    String[] parts = jwt.split("\\.");
    assertEquals(3, parts.length);
    assertTrue(verifies(parts, app.getPublic()));
    JsonNode header = json(parts[0]);
    assertEquals("RS256", header.path("alg").asText());
    assertEquals("JWT", header.path("typ").asText());
    JsonNode claims = json(parts[1]);
    assertEquals("4242", claims.path("iss").asText());
    assertEquals(NOW.getEpochSecond() - 60, claims.path("iat").asLong());
    long exp = claims.path("exp").asLong();
    assertTrue(exp > NOW.getEpochSecond(), "expires in the future");
    assertTrue(exp - NOW.getEpochSecond() <= 600, "GitHub accepts at most 10 minutes");
  }

  @Test
  void anotherKeyDoesNotVerifyTheToken() throws Exception {
    String[] parts = AppJwt.sign(1, (RSAPrivateKey) rsa().getPrivate(), NOW).split("\\.");
    assertFalse(verifies(parts, rsa().getPublic()));
  }

  @Test
  void theEncodingIsBase64UrlWithoutPadding() throws Exception {
    String jwt = AppJwt.sign(7, (RSAPrivateKey) rsa().getPrivate(), NOW);
    assertTrue(jwt.matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"), jwt);
  }

  private static boolean verifies(String[] parts, PublicKey key) throws Exception {
    Signature verifier = Signature.getInstance("SHA256withRSA");
    verifier.initVerify(key);
    verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
    return verifier.verify(Base64.getUrlDecoder().decode(parts[2]));
  }

  private static JsonNode json(String part) throws Exception {
    return new ObjectMapper().readTree(Base64.getUrlDecoder().decode(part));
  }

  static KeyPair rsa() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    return generator.generateKeyPair();
  }
}
