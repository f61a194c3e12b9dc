package dev.capstan.engine.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.ops.metrics.Metrics;
import dev.capstan.engine.ops.server.ListenAddress;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real HTTP requests on loopback to the receiver, which annotates GitRepositories on a real API
 * server.
 */
@ExtendWith(KubernetesCluster.class)
class WebhookIT {
  private static final String GITHUB_SECRET = "gh-shared-secret";
  private static final String GITLAB_SECRET = "gl-shared-token";
  private static final String GENERIC_SECRET = "generic-hmac-key";
  private static final byte[] PUSH =
      "{\"ref\":\"refs/heads/main\",\"after\":\"0123abc\"}".getBytes(StandardCharsets.UTF_8);

  private static WebhookServer server;
  private static PrometheusMeterRegistry registry;
  private static KubernetesClient client;
  private static TestNamespace ns;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start(KubernetesClient kube, TestNamespace namespace, @TempDir Path dir)
      throws Exception {
    client = kube;
    ns = namespace;
    CapstanCrds.install(client);
    client
        .secrets()
        .inNamespace(ns.name())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("hooks")
                .endMetadata()
                .addToStringData("token", GITHUB_SECRET)
                .addToStringData("hmac", GENERIC_SECRET + "\n")
                .build())
        .create();
    Path gitlabToken = dir.resolve("gitlab-token");
    Files.writeString(gitlabToken, GITLAB_SECRET + "\n");
    for (String name : new String[] {"app", "team-a-1", "team-a-2", "other"}) {
      createRepo(name, name.startsWith("team-a") ? Map.of("team", "a") : Map.of());
    }
    ReceiverConfig config =
        ReceiverConfig.parse(
            """
            receivers:
            - name: app-github
              type: github
              secretRef: {namespace: %1$s, name: hooks}
              resources: [{namespace: %1$s, name: app}, {namespace: %1$s, name: gone}]
            - name: team-gitlab
              type: gitlab
              secretFile: %2$s
              resources: [{namespace: %1$s, matchLabels: {team: a}}]
            - name: generic
              type: generic
              secretRef: {namespace: %1$s, name: hooks, key: hmac}
              resources: [{namespace: %1$s, name: other}]
            - name: missing-secret
              type: github
              secretRef: {namespace: %1$s, name: no-such-secret}
              resources: [{namespace: %1$s, name: other}]
            """
                .formatted(ns.name(), gitlabToken),
            "WebhookIT");
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    server =
        WebhookServer.start(
            ListenAddress.parse("127.0.0.1:0"),
            config,
            client,
            new Metrics(registry),
            Clock.systemUTC());
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static void createRepo(String name, Map<String, String> labels) {
    GenericKubernetesResource repo = new GenericKubernetesResource();
    repo.setApiVersion("source.capstan.dev/v1");
    repo.setKind("GitRepository");
    repo.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace(ns.name()).withLabels(labels).build());
    repo.getAdditionalProperties()
        .put(
            "spec",
            Map.of(
                "url",
                "https://git.invalid/" + name + ".git",
                "interval",
                "10m",
                "ref",
                Map.of("branch", "main")));
    client.resource(repo).create();
  }

  @BeforeEach
  void clearAnnotations() {
    for (GitRepository repo :
        client.resources(GitRepository.class).inNamespace(ns.name()).list().getItems()) {
      client
          .resources(GitRepository.class)
          .inNamespace(ns.name())
          .withName(repo.getMetadata().getName())
          .edit(
              r -> {
                if (r.getMetadata().getAnnotations() != null) {
                  r.getMetadata().getAnnotations().remove(ReconcileRequest.ANNOTATION);
                }
                return r;
              });
    }
  }

  private static String requestedAt(String name) {
    return ReconcileRequest.requestedAt(
        client.resources(GitRepository.class).inNamespace(ns.name()).withName(name).get());
  }

  private HttpResponse<String> post(String path, byte[] body, String... headers) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + path))
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String hmac(String algorithm, String secret, byte[] body) {
    return HexFormat.of()
        .formatHex(Signatures.hmac(algorithm, secret.getBytes(StandardCharsets.UTF_8), body));
  }

  private static double counter(String type, String outcome, String reason) {
    var c =
        registry
            .find("capstan.webhook.requests")
            .tags("type", type, "outcome", outcome, "reason", reason)
            .counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void signedGithubPushAnnotatesTheMappedGitRepository() throws Exception {
    Instant before = Instant.now();
    HttpResponse<String> response =
        post(
            "/hook/app-github",
            PUSH,
            "X-GitHub-Event",
            "push",
            "X-Hub-Signature-256",
            "sha256=" + hmac("HmacSHA256", GITHUB_SECRET, PUSH));
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("fetch requested for 1 GitRepositories\n", response.body());
    String stamp = requestedAt("app");
    assertNotNull(stamp);
    assertTrue(!Instant.parse(stamp).isBefore(before.minusSeconds(1)), stamp);
    assertNull(requestedAt("other"), "only the mapped repository");
    assertTrue(counter("github", "accepted", "push") >= 1);
  }

  @Test
  void unsignedOrWronglySignedRequestsAreRejectedCountedAndNeverActedOn() throws Exception {
    double unsignedBefore = counter("github", "rejected", "missing_signature");
    double badBefore = counter("github", "rejected", "bad_signature");

    assertEquals(401, post("/hook/app-github", PUSH, "X-GitHub-Event", "push").statusCode());
    assertEquals(
        403,
        post(
                "/hook/app-github",
                PUSH,
                "X-GitHub-Event",
                "push",
                "X-Hub-Signature-256",
                "sha256=" + hmac("HmacSHA256", "wrong secret", PUSH))
            .statusCode());
    byte[] tampered = "{\"ref\":\"refs/heads/evil\"}".getBytes(StandardCharsets.UTF_8);
    assertEquals(
        403,
        post(
                "/hook/app-github",
                tampered,
                "X-GitHub-Event",
                "push",
                "X-Hub-Signature-256",
                "sha256=" + hmac("HmacSHA256", GITHUB_SECRET, PUSH))
            .statusCode());
    assertEquals(
        403,
        post(
                "/hook/team-gitlab",
                PUSH,
                "X-Gitlab-Event",
                "Push Hook",
                "X-Gitlab-Token",
                GITHUB_SECRET)
            .statusCode());
    assertEquals(
        403,
        post(
                "/hook/generic",
                PUSH,
                "X-Signature",
                "sha256=" + hmac("HmacSHA256", GITHUB_SECRET, PUSH))
            .statusCode());
    assertEquals(404, post("/hook/nobody", PUSH).statusCode());

    for (String repo : new String[] {"app", "team-a-1", "team-a-2", "other"}) {
      assertNull(requestedAt(repo), repo + " must not be touched by a rejected request");
    }
    assertEquals(unsignedBefore + 1, counter("github", "rejected", "missing_signature"));
    assertEquals(badBefore + 2, counter("github", "rejected", "bad_signature"));
    assertTrue(counter("gitlab", "rejected", "bad_signature") >= 1);
    assertTrue(counter("generic", "rejected", "bad_signature") >= 1);
    assertTrue(counter("unknown", "rejected", "unknown_receiver") >= 1);
  }

  @Test
  void gitlabTokenFromAFileTriggersEveryLabelledRepository() throws Exception {
    HttpResponse<String> response =
        post(
            "/hook/team-gitlab",
            PUSH,
            "X-Gitlab-Event",
            "Push Hook",
            "X-Gitlab-Token",
            GITLAB_SECRET);
    assertEquals(200, response.statusCode(), response.body());
    assertNotNull(requestedAt("team-a-1"));
    assertNotNull(requestedAt("team-a-2"));
    assertNull(requestedAt("app"));
  }

  @Test
  void genericHmacTriggersAndPingIsIgnored() throws Exception {
    assertEquals(
        200,
        post(
                "/hook/generic",
                PUSH,
                "X-Signature",
                "sha512=" + hmac("HmacSHA512", GENERIC_SECRET, PUSH))
            .statusCode());
    assertNotNull(requestedAt("other"));

    HttpResponse<String> ping =
        post(
            "/hook/app-github",
            PUSH,
            "X-GitHub-Event",
            "ping",
            "X-Hub-Signature-256",
            "sha256=" + hmac("HmacSHA256", GITHUB_SECRET, PUSH));
    assertEquals(200, ping.statusCode());
    assertEquals("event ignored\n", ping.body());
    assertNull(requestedAt("app"));
  }

  @Test
  void aReceiverWhoseSecretIsMissingRefusesWithoutActing() throws Exception {
    HttpResponse<String> response =
        post(
            "/hook/missing-secret",
            PUSH,
            "X-GitHub-Event",
            "push",
            "X-Hub-Signature-256",
            "sha256=" + hmac("HmacSHA256", "any", PUSH));
    assertEquals(503, response.statusCode());
    assertNull(requestedAt("other"));
    HttpResponse<String> get =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:" + server.address().getPort() + "/hook/app-github"))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(405, get.statusCode());
  }
}
