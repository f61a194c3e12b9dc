package dev.capstan.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real S3-compatible server for tests: gofakes3 in memory, built from the Go module pinned in
 * {@code deploy/testregistry/tools/s3} by the registry's build script (once, cached in {@code
 * ~/.cache/capstan/bin}), started on loopback. Its S3 API checks every request's AWS Signature
 * Version 4 against one access key ({@link #ACCESS_KEY}, {@link #SECRET_KEY}), recomputed with the
 * AWS SDK's own signer; optionally over TLS with a certificate of {@link #ca()}. The test creates
 * buckets and puts objects through a second, unauthenticated port of the same server. Requests to
 * the signed API are counted from the server's log.
 */
public final class S3Server implements AutoCloseable {
  public static final String ACCESS_KEY = "capstan-test-access";
  public static final String SECRET_KEY = "secret-" + UUID.randomUUID();

  private final Process process;
  private final int port;
  private final int adminPort;
  private final boolean tls;
  private final Path log;
  private final TestPki.Issued ca;
  private final HttpClient admin = HttpClient.newHttpClient();

  private S3Server(
      Process process, int port, int adminPort, boolean tls, Path log, TestPki.Issued ca) {
    this.process = process;
    this.port = port;
    this.adminPort = adminPort;
    this.tls = tls;
    this.log = log;
    this.ca = ca;
  }

  /**
   * @param dir the test's directory for the server's log and certificate
   * @param tls serve the signed API over https with a certificate of {@link #ca()}
   */
  public static S3Server start(Path dir, boolean tls) throws Exception {
    Path binary = OciRegistry.tool("s3-server");
    Files.createDirectories(dir);
    TestPki authority = TestPki.create("s3 test CA");
    int port = freePort();
    int adminPort = freePort();
    List<String> command =
        new ArrayList<>(
            List.of(
                binary.toString(),
                "-addr",
                "127.0.0.1:" + port,
                "-admin",
                "127.0.0.1:" + adminPort,
                "-access-key",
                ACCESS_KEY,
                "-secret-key",
                SECRET_KEY));
    if (tls) {
      authority
          .server(TestPki.KeyType.EC)
          .write(dir.resolve("server.crt"), dir.resolve("server.key"));
      command.addAll(
          List.of(
              "-cert", dir.resolve("server.crt").toString(),
              "-key", dir.resolve("server.key").toString()));
    }
    Path log = dir.resolve("s3-server.log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    S3Server server = new S3Server(process, port, adminPort, tls, log, authority.authority());
    server.awaitListening(port);
    server.awaitListening(adminPort);
    return server;
  }

  /** The endpoint as a Bucket's {@code spec.endpoint} names it: {@code 127.0.0.1:<port>}. */
  public String endpoint() {
    return "127.0.0.1:" + port;
  }

  /** {@code http(s)://127.0.0.1:<port>}. */
  public String url() {
    return (tls ? "https://" : "http://") + endpoint();
  }

  /** The authority that signed the server's certificate (with {@code tls}). */
  public TestPki.Issued ca() {
    return ca;
  }

  public void createBucket(String bucket) throws IOException {
    send(HttpRequest.newBuilder(adminUri(bucket, null)).PUT(HttpRequest.BodyPublishers.noBody()));
  }

  public void putObject(String bucket, String key, byte[] content) throws IOException {
    send(
        HttpRequest.newBuilder(adminUri(bucket, key))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(content)));
  }

  public void putObject(String bucket, String key, String content) throws IOException {
    putObject(bucket, key, content.getBytes(StandardCharsets.UTF_8));
  }

  public void deleteObject(String bucket, String key) throws IOException {
    send(HttpRequest.newBuilder(adminUri(bucket, key)).DELETE());
  }

  /** The requests the signed API answered so far, as {@code METHOD uri status} lines, in order. */
  public List<String> requests() throws IOException {
    return Files.readAllLines(log).stream().filter(l -> l.matches("[A-Z]+ /\\S* \\d{3}")).toList();
  }

  private URI adminUri(String bucket, String key) {
    StringBuilder path = new StringBuilder("http://127.0.0.1:" + adminPort + "/" + bucket);
    if (key != null) {
      path.append('/');
      for (String segment : key.split("/", -1)) {
        path.append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"))
            .append('/');
      }
      path.setLength(path.length() - 1);
    }
    return URI.create(path.toString());
  }

  private void send(HttpRequest.Builder request) throws IOException {
    try {
      HttpResponse<String> response =
          admin.send(
              request.timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new IOException(
            "the S3 server answered " + response.statusCode() + ": " + response.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private void awaitListening(int at) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the S3 server exited " + process.exitValue() + ":\n" + Files.readString(log));
      }
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), at)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    throw new IllegalStateException("the S3 server did not listen within 30 s");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  @Override
  public String toString() {
    return "S3Server[" + url() + "]";
  }
}
