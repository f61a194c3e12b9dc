package dev.capstan.source.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A listing that never advances ends at once instead of at the fetch's deadline. */
class S3ClientTest {
  private HttpServer server;
  private final AtomicInteger listings = new AtomicInteger();

  @BeforeEach
  void serve() throws IOException {
    byte[] page;
    try (InputStream in = getClass().getResourceAsStream("/listings/truncated-empty.xml")) {
      page = in.readAllBytes();
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          listings.incrementAndGet();
          exchange.sendResponseHeaders(200, page.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(page);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void aTruncatedPageWithNothingInItEndsTheListing() {
    S3Endpoint endpoint = S3Endpoint.parse("127.0.0.1:" + server.getAddress().getPort(), true);
    S3Client client =
        new S3Client(
            new BucketClients().client(Map.of(), Map.of()),
            ReadDeadlines.withOwnThread(Clock.systemUTC()),
            Clock.systemUTC(),
            endpoint,
            "podinfo",
            null,
            Instant.now().plusSeconds(60));

    SourceException e = assertThrows(SourceException.class, () -> client.list("", 100_000));

    assertEquals(FailureReason.BUCKET_OPERATION_FAILED, e.reason());
    assertTrue(e.getMessage().contains("does not advance"), e.getMessage());
    assertEquals(1, listings.get());
  }
}
