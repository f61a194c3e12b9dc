package dev.capstan.source.git;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.RedirectingServer;
import dev.capstan.source.testing.TestRepo;
import dev.capstan.testing.TestPki;
import dev.capstan.testing.TestPki.KeyFormat;
import dev.capstan.testing.TestPki.KeyType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HTTPS client certificates (mutual TLS) from the Secret's tls.crt and tls.key, with the server's
 * authority from ca.crt: a Jetty server on loopback that needs a client certificate its own
 * authority signed, with certificates made in the test.
 */
class HttpsClientCertificateIT {

  static TestPki pki;
  static TestPki.Issued serverCertificate;

  @TempDir Path tmp;
  TestRepo repo;
  RevCommit head;
  HttpGitServer server;

  @BeforeAll
  static void authority() {
    pki = TestPki.create("Git CA");
    serverCertificate = pki.server(KeyType.EC);
  }

  @BeforeEach
  void setUp() throws Exception {
    repo = TestRepo.create(tmp.resolve("served/app"));
    head = repo.commit("first", Map.of("deploy.yaml", "kind: ConfigMap\n"));
    server = HttpGitServer.mutualTls(tmp.resolve("served"), serverCertificate, pki.trustStore());
  }

  @AfterEach
  void tearDown() throws Exception {
    server.close();
    repo.close();
  }

  private GitSource source(String store) {
    return new GitSource(
        GitSourceOptions.at(tmp.resolve(store))
            .withRetry(RetryPolicy.none())
            .withDefaultTimeout(Duration.ofSeconds(30)));
  }

  private static Map<String, byte[]> secret(TestPki.Issued client, KeyFormat format) {
    Map<String, byte[]> data = new HashMap<>();
    data.put("ca.crt", pki.caPem().getBytes(UTF_8));
    if (client != null) {
      data.put("tls.crt", client.certificatePem().getBytes(UTF_8));
      data.put("tls.key", client.keyPem(format).getBytes(UTF_8));
    }
    return data;
  }

  private FetchResult fetch(String url, Map<String, byte[]> secret) {
    return source("store")
        .fetch(FetchRequest.of("ns/app", url, GitRef.branch("main")).withSecretData(secret));
  }

  @ParameterizedTest
  @CsvSource({"RSA, TRADITIONAL", "RSA, PKCS8", "EC, TRADITIONAL", "EC, PKCS8"})
  void theSecretsClientCertificateIsPresented(KeyType type, KeyFormat format) {
    FetchResult result =
        fetch(server.url("app"), secret(pki.client("capstan-" + type, type), format));

    StoredArtifact artifact =
        assertInstanceOf(FetchResult.Fetched.class, result, String.valueOf(result)).current();
    assertEquals("main@sha1:" + head.name(), artifact.revision());
    assertEquals(
        List.of("CN=capstan-" + type),
        server.clientCertificates().stream().distinct().toList(),
        "every request came with the Secret's certificate");
  }

  @Test
  void withoutAClientCertificateTheServerRefuses() {
    FetchResult.Failed failed =
        assertInstanceOf(FetchResult.Failed.class, fetch(server.url("app"), secret(null, null)));
    assertEquals(FailureReason.AUTHENTICATION_FAILED, failed.reason(), failed.message());
    assertTrue(
        failed
            .message()
            .contains(
                "the remote requires a client certificate ('tls.crt' and 'tls.key' of the secret)"),
        failed.message());
    assertEquals(List.of(), server.clientCertificates());
  }

  @Test
  void aCertificateOfAnotherAuthorityIsRefused() {
    TestPki.Issued stranger = TestPki.create("Other CA").client("stranger", KeyType.EC);
    FetchResult.Failed failed =
        assertInstanceOf(
            FetchResult.Failed.class, fetch(server.url("app"), secret(stranger, KeyFormat.PKCS8)));
    assertEquals(FailureReason.AUTHENTICATION_FAILED, failed.reason(), failed.message());
    // The server names the authorities it takes, and the JDK (as Go) offers no other's certificate.
    assertTrue(
        failed
            .message()
            .contains(
                "the remote asked for a client certificate of authorities that did not sign the"
                    + " secret's 'tls.crt'"),
        failed.message());
    assertEquals(List.of(), server.clientCertificates());
  }

  @Test
  void aCertificateTheServerDoesNotTakeIsRefused() {
    // Signed by the server's authority, but for servers only (extended key usage serverAuth).
    TestPki.Issued serverOnly = pki.server(KeyType.RSA);
    FetchResult.Failed failed =
        assertInstanceOf(
            FetchResult.Failed.class,
            fetch(server.url("app"), secret(serverOnly, KeyFormat.TRADITIONAL)));
    assertEquals(FailureReason.AUTHENTICATION_FAILED, failed.reason(), failed.message());
    assertTrue(
        failed
            .message()
            .contains("the remote refused the client certificate of the secret's 'tls.crt'"),
        failed.message());
  }

  @Test
  void withoutCaCrtTheServersCertificateIsNotTrusted() {
    TestPki.Issued client = pki.client("capstan", KeyType.EC);
    Map<String, byte[]> secret = secret(client, KeyFormat.PKCS8);
    secret.remove("ca.crt");
    FetchResult.Failed failed =
        assertInstanceOf(FetchResult.Failed.class, fetch(server.url("app"), secret));
    assertEquals(FailureReason.GIT_OPERATION_FAILED, failed.reason(), failed.message());
    assertTrue(failed.message().contains("certification path"), failed.message());
  }

  @Test
  void aBadKeyFailsBeforeAnyRequestAndIsNeverQuoted() {
    TestPki.Issued client = pki.client("capstan", KeyType.RSA);
    Map<String, byte[]> secret = secret(client, KeyFormat.PKCS8);
    secret.put("tls.key", pki.client("other", KeyType.RSA).keyPem(KeyFormat.PKCS8).getBytes(UTF_8));
    FetchResult.Failed failed =
        assertInstanceOf(FetchResult.Failed.class, fetch(server.url("app"), secret));
    assertEquals(FailureReason.INVALID_SECRET, failed.reason());
    assertEquals(
        "the secret's 'tls.key' is not the private key of the certificate in 'tls.crt'",
        failed.message());
    assertEquals(0, server.requests());
  }

  @Test
  void theClientCertificateIsNotPresentedToAnotherOriginAfterARedirect() throws Exception {
    Map<String, byte[]> secret = secret(pki.client("capstan", KeyType.EC), KeyFormat.PKCS8);
    try (RedirectingServer redirect =
        RedirectingServer.overTls("https://127.0.0.1:" + server.port(), serverCertificate)) {
      FetchResult result = fetch(redirect.url("/git/app"), secret);

      FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, result);
      assertEquals(FailureReason.AUTHENTICATION_FAILED, failed.reason(), failed.message());
      assertTrue(
          failed.message().contains("the remote requires a client certificate")
              && failed.message().contains("credentials are never sent there"),
          failed.message());
      assertEquals(List.of(), server.clientCertificates());
    }
    assertInstanceOf(FetchResult.Fetched.class, fetch(server.url("app"), secret));
    assertFalse(server.clientCertificates().isEmpty());
  }
}
