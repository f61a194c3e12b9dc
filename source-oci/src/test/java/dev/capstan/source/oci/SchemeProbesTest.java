package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.testing.TestPki;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one source learnt of a registry's scheme is not another source's: a registry that was down
 * when one tenant's source probed it is probed again, and found speaking TLS, for the next.
 */
class SchemeProbesTest {
  @TempDir Path dir;

  @Test
  void aFailedProbeOfOneSourceDoesNotMakeAnotherSpeakPlainHttp() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    OciSource source = new OciSource(OciSourceOptions.of(new ArtifactStore(dir, clock()), clock()));
    String url = "oci://127.0.0.1:" + port + "/app";
    FetchResult first =
        source.fetch(
            OciFetchRequest.of("ocirepository/tenant-a/app", url, OciRef.tag("v1"))
                .withInsecure(true)
                .withTimeout(Duration.ofSeconds(10)));
    assertInstanceOf(FetchResult.Failed.class, first); // nothing listened: probed as plain http

    List<String> requests = new CopyOnWriteArrayList<>();
    HttpsServer registry = tlsRegistry(port, requests);
    try {
      source.fetch(
          OciFetchRequest.of("ocirepository/tenant-b/app", url, OciRef.tag("v1"))
              .withInsecure(true)
              .withTimeout(Duration.ofSeconds(10)));
    } finally {
      registry.stop(0);
    }

    assertTrue(
        requests.contains("HEAD /v2/app/manifests/v1"),
        "the second source did not speak TLS to the registry: " + requests);
  }

  private static Clock clock() {
    return Clock.systemUTC();
  }

  private static HttpsServer tlsRegistry(int port, List<String> requests) throws Exception {
    TestPki pki = TestPki.create("scheme-probes");
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(pki.server(TestPki.KeyType.EC).keyStore(), TestPki.PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(context));
    server.createContext(
        "/",
        exchange -> {
          requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
          exchange.sendResponseHeaders(404, -1);
          exchange.close();
        });
    server.start();
    return server;
  }
}
