package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.TestPki;
import dev.capstan.testing.TestPki.KeyFormat;
import dev.capstan.testing.TestPki.KeyType;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GitRepository whose https server needs a client certificate (mutual TLS): the Secret's tls.crt
 * and tls.key are presented, its ca.crt trusted for the server's certificate, as in Flux.
 */
class GitClientCertificateIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void theSecretsClientCertificateOpensTheServerAndNothingElseDoes(@TempDir Path dir) {
    TestPki pki = TestPki.create("Git CA");
    TestPki.Issued client = pki.client("capstan", KeyType.RSA);
    try (GitFixture served =
        GitFixture.createMutualTls(dir, pki.server(KeyType.EC), pki.trustStore())) {
      String revision =
          served.commit(Map.of("mtls/cm.yaml", Manifests.configMap("mtls", "served")));
      engine.secret(
          "git-mtls",
          Map.of(
              "tls.crt", client.certificatePem(),
              "tls.key", client.keyPem(KeyFormat.TRADITIONAL),
              "ca.crt", pki.caPem()));
      engine.secret("git-ca-only", Map.of("ca.crt", pki.caPem()));
      engine.gitRepository("with-cert", served.url(), "  secretRef: {name: git-mtls}\n");
      engine.gitRepository("without-cert", served.url(), "  secretRef: {name: git-ca-only}\n");
      engine.kustomization("mtls", "with-cert", "./mtls", "");

      engine.awaitSourceCondition("with-cert", "Ready", WAIT, EngineTestBase::isTrue);
      assertEquals(revision, engine.gitRepository("with-cert").getStatus().artifact().revision());
      engine.awaitCondition("mtls", "Ready", WAIT, EngineTestBase::isTrue);
      var cm = engine.client.configMaps().inNamespace(ns()).withName("mtls").get();
      assertEquals("served", cm.getData().get("value"));

      Condition refused =
          engine.awaitSourceCondition("without-cert", "Ready", WAIT, EngineTestBase::isFalse);
      assertEquals("AuthenticationFailed", refused.getReason());
      assertTrue(
          refused
              .getMessage()
              .contains(
                  "the remote requires a client certificate ('tls.crt' and 'tls.key' of the"
                      + " secret)"),
          refused.getMessage());
      assertEquals(null, engine.gitRepository("without-cert").getStatus().artifact());
    }
  }
}
