package dev.capstan.source.helm;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.capstan.source.core.store.ArtifactStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;

/**
 * A Helm repository served over HTTP(S) by the JDK's server on loopback: one index.yaml, with an
 * ETag, answering 304 to a matching If-None-Match, optionally behind basic authentication or
 * answering something else for a while; packaged charts beside it. Every request it saw is kept.
 */
public final class IndexServer implements AutoCloseable {
  /** One request as the server saw it. */
  public record Seen(String path, Map<String, List<String>> headers, int status) {
    public String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  private final HttpServer server;
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private volatile byte[] index = new byte[0];
  private volatile Path indexFile;
  private volatile String authorization;
  private volatile int failWith;
  private volatile String redirectTo;
  private final Map<String, byte[]> files = new ConcurrentHashMap<>();
  private volatile boolean chunked;

  private IndexServer(HttpServer server) {
    this.server = server;
    server.createContext("/", this::handle);
    server.start();
  }

  /** A plain http server. */
  public static IndexServer http() {
    try {
      return new IndexServer(
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An https server with the certificate of {@code tls}. */
  public static IndexServer https(SSLContext tls) {
    try {
      HttpsServer server =
          HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.setHttpsConfigurator(new HttpsConfigurator(tls));
      return new IndexServer(server);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The repository's URL, e.g. {@code http://127.0.0.1:1234/charts}. */
  public String url() {
    String scheme = server instanceof HttpsServer ? "https" : "http";
    return scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/charts";
  }

  public IndexServer serve(byte[] content) {
    this.index = content.clone();
    this.indexFile = null;
    return this;
  }

  /** Serves the index in {@code file}, read as it is sent (a large index need not be in memory). */
  public IndexServer serve(Path file) {
    this.indexFile = file;
    return this;
  }

  /** Serves {@code content} at {@code name} below the repository's URL (a packaged chart). */
  public IndexServer serveFile(String name, byte[] content) {
    files.put("/charts/" + name, content.clone());
    return this;
  }

  /** Files sent without a Content-Length from now on, so that only reading can bound them. */
  public IndexServer chunked(boolean chunked) {
    this.chunked = chunked;
    return this;
  }

  /** Basic authentication required from now on: {@code user} and {@code password}. */
  public IndexServer requireBasic(String user, String password) {
    this.authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return this;
  }

  /** Every request answered {@code status} from now on; 0 serves the index again. */
  public IndexServer failWith(int status) {
    this.failWith = status;
    return this;
  }

  /** Every request redirected to {@code url} + its path from now on; null serves again. */
  public IndexServer redirectTo(String url) {
    this.redirectTo = url;
    return this;
  }

  public List<Seen> seen() {
    return List.copyOf(seen);
  }

  public String etag() {
    Path file = indexFile;
    String identity;
    try {
      identity =
          file == null
              ? new String(index, StandardCharsets.ISO_8859_1)
              : file + ":" + Files.size(file) + ":" + Files.getLastModifiedTime(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "\"" + ArtifactStore.sha256Hex(identity).substring(0, 16) + "\"";
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange;
        InputStream ignored = exchange.getRequestBody()) {
      answer(exchange);
    }
  }

  private int answer(HttpExchange exchange) throws IOException {
    if (redirectTo != null) {
      exchange
          .getResponseHeaders()
          .add("Location", redirectTo + exchange.getRequestURI().getPath());
      respond(exchange, 302, -1);
      return 302;
    }
    if (authorization != null
        && !authorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
      respond(exchange, 401, -1);
      return 401;
    }
    if (failWith != 0) {
      respond(exchange, failWith, -1);
      return failWith;
    }
    byte[] served = files.get(exchange.getRequestURI().getPath());
    if (served != null) {
      respond(exchange, 200, chunked ? 0 : served.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(served);
      }
      return 200;
    }
    if (!exchange.getRequestURI().getPath().equals("/charts/index.yaml")) {
      respond(exchange, 404, -1);
      return 404;
    }
    String etag = etag();
    exchange.getResponseHeaders().add("ETag", etag);
    if (etag.equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
      respond(exchange, 304, -1);
      return 304;
    }
    Path file = indexFile;
    if (file != null) {
      respond(exchange, 200, Files.size(file));
      try (OutputStream out = exchange.getResponseBody()) {
        Files.copy(file, out);
      }
      return 200;
    }
    respond(exchange, 200, index.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(index);
    }
    return 200;
  }

  /** Sends the status line, the request recorded first: a client may go on once it is sent. */
  private void respond(HttpExchange exchange, int status, long length) throws IOException {
    seen.add(
        new Seen(
            exchange.getRequestURI().getPath(), Map.copyOf(exchange.getRequestHeaders()), status));
    exchange.sendResponseHeaders(status, length);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
