package dev.capstan.engine.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.capstan.testing.TestPki;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An admission webhook on loopback that admits every object unchanged: it stands in for a chart's
 * webhook whose pods the local control plane only pretends to run (kwok fakes pods, so the API
 * server could never reach them and every object the webhook guards would be refused).
 */
final class AdmitAllWebhook implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_REVIEW = 4 * 1024 * 1024;

  private final HttpsServer server;
  private final TestPki pki;
  private final AtomicInteger admitted = new AtomicInteger();
  private final ExecutorService handlers = Executors.newFixedThreadPool(4);

  private AdmitAllWebhook(HttpsServer server, TestPki pki) {
    this.server = server;
    this.pki = pki;
  }

  static AdmitAllWebhook start() throws IOException, GeneralSecurityException {
    TestPki pki = TestPki.create("admit-all-webhook");
    TestPki.Issued certificate = pki.server(TestPki.KeyType.EC);
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(certificate.keyStore(), TestPki.PASSWORD.toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys.getKeyManagers(), null, null);
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    AdmitAllWebhook webhook = new AdmitAllWebhook(server, pki);
    server.createContext("/", webhook::admit);
    // the API server calls it for several requests at once: one slow handshake must not hold all
    server.setExecutor(webhook.handlers);
    server.start();
    return webhook;
  }

  /**
   * Points every webhook of the validating and the mutating configuration {@code name} at this
   * server, with its authority as their CA bundle (as a CA injector would set it).
   */
  void standIn(KubernetesClient client, String name) {
    var admission = client.admissionRegistration().v1();
    admission
        .validatingWebhookConfigurations()
        .withName(name)
        .edit(
            c -> {
              c.getWebhooks().forEach(w -> w.setClientConfig(clientConfig("validate")));
              return c;
            });
    admission
        .mutatingWebhookConfigurations()
        .withName(name)
        .edit(
            c -> {
              c.getWebhooks().forEach(w -> w.setClientConfig(clientConfig("mutate")));
              return c;
            });
  }

  /** How many admission reviews this server answered. */
  int admitted() {
    return admitted.get();
  }

  private WebhookClientConfig clientConfig(String path) {
    WebhookClientConfig config = new WebhookClientConfig();
    config.setUrl("https://127.0.0.1:" + server.getAddress().getPort() + "/" + path);
    config.setCaBundle(
        Base64.getEncoder().encodeToString(pki.caPem().getBytes(StandardCharsets.US_ASCII)));
    return config;
  }

  private void admit(HttpExchange exchange) throws IOException {
    try (exchange;
        InputStream body = exchange.getRequestBody()) {
      JsonNode review = JSON.readTree(body.readNBytes(MAX_REVIEW));
      byte[] answer =
          JSON.writeValueAsBytes(
              Map.of(
                  "apiVersion",
                  "admission.k8s.io/v1",
                  "kind",
                  "AdmissionReview",
                  "response",
                  Map.of("uid", review.path("request").path("uid").asText(), "allowed", true)));
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
      admitted.incrementAndGet();
    }
  }

  @Override
  public void close() {
    server.stop(0);
    handlers.shutdownNow();
  }
}
