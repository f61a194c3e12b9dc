package dev.capstan.source.git.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.tls.SecretTls;
import dev.capstan.testing.TestPki;
import dev.capstan.testing.TestPki.KeyFormat;
import dev.capstan.testing.TestPki.KeyType;
import java.security.Security;
import java.util.HashMap;
import java.util.Map;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading tls.crt, tls.key and ca.crt of a Secret into TLS socket factories. */
class TlsSettingsTest {

  static TestPki pki;
  static TestPki.Issued rsa;
  static TestPki.Issued ec;

  @BeforeAll
  static void certificates() {
    pki = TestPki.create("Test CA");
    rsa = pki.client("rsa-client", KeyType.RSA);
    ec = pki.client("ec-client", KeyType.EC);
  }

  private static TlsSettings settings(Map<String, String> secret) {
    Map<String, byte[]> data = new HashMap<>();
    secret.forEach((k, v) -> data.put(k, v.getBytes(UTF_8)));
    return TlsSettings.from(data);
  }

  private static SourceException refused(Map<String, String> secret) {
    SourceException e = assertThrows(SourceException.class, () -> settings(secret));
    assertEquals(FailureReason.INVALID_SECRET, e.reason());
    return e;
  }

  @ParameterizedTest
  @CsvSource({"RSA, TRADITIONAL", "RSA, PKCS8", "EC, TRADITIONAL", "EC, PKCS8"})
  void clientKeysInEveryPemForm(KeyType type, KeyFormat format) {
    TestPki.Issued client = type == KeyType.RSA ? rsa : ec;
    String key = client.keyPem(format);
    assertTrue(
        key.startsWith(
            format == KeyFormat.PKCS8
                ? "-----BEGIN PRIVATE KEY-----"
                : type == KeyType.RSA
                    ? "-----BEGIN RSA PRIVATE KEY-----"
                    : "-----BEGIN EC PRIVATE KEY-----"),
        key.lines().findFirst().orElse(""));
    TlsSettings tls =
        settings(Map.of("tls.crt", client.certificatePem(), "tls.key", key, "ca.crt", pki.caPem()));
    assertNotNull(tls.forRemote());
    assertNotNull(tls.forOtherOrigins(), "other origins trust ca.crt too");
    assertFalse(
        tls.forRemote() == tls.forOtherOrigins(), "the client certificate is for the remote alone");
  }

  @Test
  void keysReadTheSameWithBouncyCastleRegistered() {
    // Registered, Bouncy Castle parses EC keys as "ECDSA" keys, which the JDK's TLS would not sign
    // with; the keys are taken over as the JDK's own.
    // Removed afterwards only if added here: the SSH library registers it too, and keeps using it.
    boolean added = Security.addProvider(new BouncyCastleProvider()) != -1;
    try {
      for (KeyFormat format : KeyFormat.values()) {
        assertNotNull(
            settings(Map.of("tls.crt", ec.certificatePem(), "tls.key", ec.keyPem(format)))
                .forRemote());
      }
    } finally {
      if (added) {
        Security.removeProvider(BouncyCastleProvider.PROVIDER_NAME);
      }
    }
  }

  @Test
  void aCaAloneIsTrustedEverywhere() {
    assertNotNull(settings(Map.of("ca.crt", pki.caPem())).forOtherOrigins());
    assertNotNull(settings(Map.of("caFile", pki.caPem())).forRemote());
  }

  @Test
  void noTlsEntriesNoSettings() {
    assertNull(settings(Map.of("username", "u", "password", "p")));
  }

  @Test
  void halfAPairIsRefused() {
    assertEquals(
        "the secret has a 'tls.crt' but no 'tls.key': a client certificate needs both",
        refused(Map.of("tls.crt", ec.certificatePem())).getMessage());
    assertEquals(
        "the secret has a 'tls.key' but no 'tls.crt': a client certificate needs both",
        refused(Map.of("tls.key", ec.keyPem(KeyFormat.PKCS8))).getMessage());
  }

  @Test
  void theKeyOfAnotherCertificateIsRefused() {
    assertEquals(
        "the secret's 'tls.key' is not the private key of the certificate in 'tls.crt'",
        refused(Map.of("tls.crt", ec.certificatePem(), "tls.key", rsa.keyPem(KeyFormat.PKCS8)))
            .getMessage());
    TestPki.Issued otherEc = pki.client("other", KeyType.EC);
    assertEquals(
        "the secret's 'tls.key' is not the private key of the certificate in 'tls.crt'",
        refused(
                Map.of(
                    "tls.crt",
                    ec.certificatePem(),
                    "tls.key",
                    otherEc.keyPem(KeyFormat.TRADITIONAL)))
            .getMessage());
  }

  @Test
  void unreadableEntriesAreNamedAndNeverQuoted() {
    String secretText = "S3CRET-NOT-A-KEY";
    SourceException key =
        refused(
            Map.of(
                "tls.crt",
                ec.certificatePem(),
                "tls.key",
                "-----BEGIN PRIVATE KEY-----\n" + secretText + "\n-----END PRIVATE KEY-----\n"));
    assertTrue(
        key.getMessage().startsWith("the secret's 'tls.key' could not be read"), key.getMessage());
    assertFalse(key.getMessage().contains(secretText));

    assertEquals(
        "the secret's 'tls.crt' is not a PEM certificate",
        refused(Map.of("tls.crt", secretText, "tls.key", ec.keyPem(KeyFormat.PKCS8))).getMessage());
    assertEquals(
        "the secret's 'ca.crt' is not a PEM certificate",
        refused(Map.of("ca.crt", secretText)).getMessage());
  }

  @Test
  void oversizedEntriesAreRefused() {
    assertEquals(
        "the secret's 'ca.crt' is larger than 1048576 bytes",
        refused(Map.of("ca.crt", "x".repeat(SecretTls.MAX_ENTRY_BYTES + 1))).getMessage());
  }
}
