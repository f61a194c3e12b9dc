package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.capstan.source.core.tls.SecretTls;
import dev.capstan.testing.TestPki;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client certificate of {@code certSecretRef} is offered to the registry's host only: two TLS
 * servers on loopback that both ask for one, the registry named {@code localhost} and another host
 * named {@code 127.0.0.1}.
 */
class ClientCertificateHostTest {
  private final TestPki pki = TestPki.create("client-certificate-host");
  private final List<HttpsServer> servers = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  @Test
  void onlyTheRegistrysHostIsShownTheCertificate() throws Exception {
    List<String> seen = new CopyOnWriteArrayList<>();
    int registry = server("registry", seen);
    int other = server("other", seen);
    TestPki.Issued client = pki.client("tenant", TestPki.KeyType.EC);
    Map<String, byte[]> certSecret =
        Map.of(
            SecretTls.CA, pki.caPem().getBytes(StandardCharsets.US_ASCII),
            SecretTls.CERT, client.certificatePem().getBytes(StandardCharsets.US_ASCII),
            SecretTls.KEY, client.keyPem().getBytes(StandardCharsets.US_ASCII));
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(TlsSettings.context(certSecret, false, "localhost"))
            .build();

    get(http, "https://localhost:" + registry + "/");
    get(http, "https://127.0.0.1:" + other + "/");

    assertEquals(List.of("registry: CN=tenant", "other: none"), seen);
  }

  @Test
  void theHostRuleIgnoresCaseBracketsAndATrailingDot() {
    HostBoundKeys keys = new HostBoundKeys(null, "Registry.Example.");
    assertEquals(true, keys.offersTo("registry.example"));
    assertEquals(false, keys.offersTo("registry.example.evil"));
    assertEquals(false, keys.offersTo(null));
    assertEquals(true, new HostBoundKeys(null, "::1").offersTo("[::1]"));
  }

  private static void get(HttpClient http, String url) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode());
  }

  /** A TLS server that asks for (but does not require) a client certificate and notes it. */
  private int server(String name, List<String> seen) throws Exception {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(pki.server(TestPki.KeyType.EC).keyStore(), TestPki.PASSWORD.toCharArray());
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(pki.trustStore());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters params) {
            SSLParameters parameters = context.getDefaultSSLParameters();
            parameters.setWantClientAuth(true);
            params.setSSLParameters(parameters);
          }
        });
    server.createContext(
        "/",
        exchange -> {
          String who;
          try {
            X509Certificate peer =
                (X509Certificate)
                    ((HttpsExchange) exchange).getSSLSession().getPeerCertificates()[0];
            who = peer.getSubjectX500Principal().getName();
          } catch (SSLPeerUnverifiedException e) {
            who = "none";
          }
          seen.add(name + ": " + who);
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
    servers.add(server);
    return server.getAddress().getPort();
  }
}
