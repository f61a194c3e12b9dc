package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.HelmRepository;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.testing.TestPki;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/**
 * HelmRepositories against a real Helm repository: an https server started here, behind basic
 * authentication, its certificate signed by an authority only the certSecretRef's ca.crt names.
 * What a user checks is the status: Ready with the stored index's digest as the revision, an
 * unchanged index refreshed with one conditional request, a changed one a new revision, a failed
 * download keeping the last good artifact, no Secret value anywhere in it; a suspended repository
 * left alone until resumed; type oci recorded.
 */
class HelmRepositoryIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String PASSWORD = "helm-s3cret-password";

  @Test
  void anIndexBehindBasicAuthAndAPrivateAuthorityIsStoredRefreshedAndKept() throws Exception {
    TestPki pki = TestPki.create("Helm CA");
    try (IndexServer served = IndexServer.https(tls(pki.server(TestPki.KeyType.EC)))) {
      served.serve(podinfo("6.5.4")).requireBasic("reader", PASSWORD);
      engine.secret("helm-auth", Map.of("username", "reader", "password", PASSWORD));
      engine.secret("helm-ca", Map.of("ca.crt", pki.caPem()));
      helmRepository(
          "podinfo",
          "  url: "
              + served.url()
              + "\n  interval: 2s\n"
              + "  secretRef: {name: helm-auth}\n  certSecretRef: {name: helm-ca}\n");

      Condition ready = awaitCondition("podinfo", "Ready", isTrue());
      var first = helmRepository("podinfo").getStatus().artifact();
      assertTrue(first.revision().matches("sha256:[0-9a-f]{64}"), first.revision());
      assertEquals(first.revision(), first.digest());
      assertEquals("Succeeded", ready.getReason());
      assertTrue(Files.readString(Path.of(first.path(), "index.yaml")).contains("6.5.4"));

      // Refreshed at the interval: each later request is conditional, answered 304, and the
      // artifact stays the one stored first.
      int before = served.seen().size();
      EngineFixture.eventually(WAIT).until(() -> served.seen().size() >= before + 2);
      List<IndexServer.Seen> all = served.seen();
      List<IndexServer.Seen> refreshes = all.subList(before, all.size());
      assertTrue(refreshes.stream().allMatch(s -> s.status() == 304), refreshes.toString());
      assertTrue(
          refreshes.stream().allMatch(s -> s.header("If-None-Match") != null),
          refreshes.toString());
      assertEquals(first, helmRepository("podinfo").getStatus().artifact());

      served.serve(podinfo("6.5.5"));
      EngineFixture.eventually(WAIT)
          .until(
              () ->
                  !first
                      .revision()
                      .equals(helmRepository("podinfo").getStatus().artifact().revision()));
      var changed = helmRepository("podinfo").getStatus().artifact();
      assertTrue(Files.readString(Path.of(changed.path(), "index.yaml")).contains("6.5.5"));

      served.failWith(503);
      Condition failed = awaitCondition("podinfo", "Ready", isFalse());
      assertEquals("Failed", failed.getReason());
      assertTrue(failed.getMessage().endsWith("answered HTTP 503"), failed.getMessage());
      assertEquals(changed, helmRepository("podinfo").getStatus().artifact());
      assertTrue(Files.isRegularFile(Path.of(changed.path(), "index.yaml")));

      noSecretValueIn(helmRepository("podinfo"));

      client().resources(HelmRepository.class).inNamespace(ns()).withName("podinfo").delete();
      EngineFixture.eventually(WAIT).until(() -> !Files.exists(Path.of(changed.path())));
    }
  }

  @Test
  void refusedCredentialsAndUnsupportedProvidersAreNamedWithoutTheSecret() throws Exception {
    TestPki pki = TestPki.create("Helm CA 2");
    try (IndexServer served = IndexServer.https(tls(pki.server(TestPki.KeyType.EC)))) {
      served.serve(podinfo("1.0.0")).requireBasic("reader", PASSWORD);
      engine.secret("wrong-auth", Map.of("username", "reader", "password", "wrong-" + PASSWORD));
      engine.secret("other-ca", Map.of("ca.crt", pki.caPem()));
      helmRepository(
          "refused",
          "  url: "
              + served.url()
              + "\n  interval: 1m\n"
              + "  secretRef: {name: wrong-auth}\n  certSecretRef: {name: other-ca}\n");
      helmRepository("untrusted", "  url: " + served.url() + "\n  interval: 1m\n");
      helmRepository("cloud", "  url: " + served.url() + "\n  interval: 1m\n  provider: aws\n");

      Condition refused = awaitCondition("refused", "Ready", isFalse());
      assertEquals("AuthenticationFailed", refused.getReason());
      assertTrue(refused.getMessage().contains("credentials of spec.secretRef were refused"));
      noSecretValueIn(helmRepository("refused"));
      assertNull(helmRepository("refused").getStatus().artifact());

      Condition untrusted = awaitCondition("untrusted", "Ready", isFalse());
      assertEquals("Failed", untrusted.getReason());
      assertTrue(
          untrusted.getMessage().startsWith("TLS with 127.0.0.1 failed"), untrusted.getMessage());

      Condition stalled = awaitCondition("cloud", "Stalled", isTrue());
      assertEquals("InvalidSpec", stalled.getReason());
      assertTrue(stalled.getMessage().contains("spec.provider 'aws' is not supported"));
    }
  }

  @Test
  void aSuspendedRepositoryIsNotDownloadedUntilResumed() {
    try (IndexServer held = IndexServer.http().serve(podinfo("2.0.0"));
        IndexServer other = IndexServer.http().serve(podinfo("2.0.0"))) {
      helmRepository("held", "  url: " + held.url() + "\n  interval: 1s\n  suspend: true\n");
      helmRepository("beside", "  url: " + other.url() + "\n  interval: 1s\n");

      awaitCondition("beside", "Ready", isTrue());
      // Two intervals of the suspended one pass with nothing asked of its server.
      EngineFixture.eventually(WAIT).until(() -> other.seen().size() >= 3);
      assertEquals(List.of(), held.seen());
      assertNull(helmRepository("held").getStatus().conditions());

      client()
          .resources(HelmRepository.class)
          .inNamespace(ns())
          .withName("held")
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":false}}");
      awaitCondition("held", "Ready", isTrue());
      assertEquals(200, held.seen().get(0).status());
    }
  }

  @Test
  void anOciRepositoryOnlyRecordsItsUrl() {
    helmRepository("charts", "  type: oci\n  url: oci://ghcr.io/stefanprodan/charts\n");
    helmRepository("not-oci", "  type: oci\n  url: https://charts.example.com\n");

    Condition ready = awaitCondition("charts", "Ready", isTrue());
    assertEquals("Helm repository is ready", ready.getMessage());
    assertNull(helmRepository("charts").getStatus().artifact());

    Condition stalled = awaitCondition("not-oci", "Stalled", isTrue());
    assertEquals("URLInvalid", stalled.getReason());
  }

  private static void noSecretValueIn(HelmRepository repo) {
    String status = engine.client.getKubernetesSerialization().asYaml(repo.getStatus());
    assertFalse(status.contains(PASSWORD), status);
    String events =
        engine
            .client
            .getKubernetesSerialization()
            .asYaml(client().v1().events().inNamespace(ns()).list().getItems());
    assertFalse(events.contains(PASSWORD));
  }

  private static Predicate<Condition> isTrue() {
    return EngineTestBase::isTrue;
  }

  private static Predicate<Condition> isFalse() {
    return EngineTestBase::isFalse;
  }

  private static KubernetesClient client() {
    return engine.client;
  }

  private static void helmRepository(String name, String spec) {
    String yaml =
        """
        apiVersion: source.capstan.dev/v1
        kind: HelmRepository
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec:
        %s
        """
            .formatted(name, ns(), EngineFixture.SHARD_LABEL, engine.shard, spec.stripTrailing());
    HelmRepository repo =
        client()
            .resources(HelmRepository.class)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item();
    client().resource(repo).create();
  }

  private static HelmRepository helmRepository(String name) {
    return client().resources(HelmRepository.class).inNamespace(ns()).withName(name).get();
  }

  /** Waits until the HelmRepository's condition satisfies {@code test}, and returns it as seen. */
  private static Condition awaitCondition(String name, String type, Predicate<Condition> test) {
    return engine.awaitSourceCondition(HelmRepository.class, name, type, WAIT, test);
  }

  private static byte[] podinfo(String version) {
    return ("apiVersion: v1\nentries:\n  podinfo:\n  - name: podinfo\n    version: "
            + version
            + "\n    urls: [podinfo-"
            + version
            + ".tgz]\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static SSLContext tls(TestPki.Issued server) throws GeneralSecurityException {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(server.keyStore(), TestPki.PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }
}
