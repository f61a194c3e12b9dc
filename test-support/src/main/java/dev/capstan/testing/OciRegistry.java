package dev.capstan.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Signature;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A real OCI registry for tests: the CNCF Distribution registry, built from the Go module pinned in
 * {@code deploy/testregistry} (by its build script, once, cached in {@code ~/.cache/capstan/bin}),
 * started on loopback with its storage in a directory of the test's own. Optionally served over TLS
 * (a CA the test made; with mutual TLS, a client certificate is required) and behind token
 * authentication: a token service in this JVM issues the registry's JWTs to the test's user.
 * Requests are counted from the registry's own access log.
 */
public final class OciRegistry implements AutoCloseable {
  public static final String USERNAME = "capstan-test";
  public static final String PASSWORD = "pass-" + UUID.randomUUID();

  /** What the registry asks of a client. */
  public enum Auth {
    NONE,
    TOKEN
  }

  /**
   * @param tls serve https with a certificate of {@link #ca()}
   * @param mutualTls require a client certificate signed by {@link #ca()} (implies tls)
   */
  public record Options(boolean tls, boolean mutualTls, Auth auth) {
    public static Options plain() {
      return new Options(false, false, Auth.NONE);
    }
  }

  private final Process process;
  private final int port;
  private final Path dir;
  private final Path log;
  private final Options options;
  private final TestPki.Issued ca;
  private final TestPki.Issued client;
  private final HttpServer tokenServer;
  private final AtomicInteger tokensIssued;

  private OciRegistry(
      Process process,
      int port,
      Path dir,
      Path log,
      Options options,
      TestPki.Issued ca,
      TestPki.Issued client,
      HttpServer tokenServer,
      AtomicInteger tokensIssued) {
    this.process = process;
    this.port = port;
    this.dir = dir;
    this.log = log;
    this.options = options;
    this.ca = ca;
    this.client = client;
    this.tokenServer = tokenServer;
    this.tokensIssued = tokensIssued;
  }

  /** The path of a test tool built by {@code deploy/testregistry/build}: oci-registry or oras. */
  public static synchronized Path tool(String name) throws IOException {
    Path cache =
        Path.of(
            System.getenv()
                .getOrDefault(
                    "CAPSTAN_CACHE", System.getProperty("user.home") + "/.cache/capstan"));
    Path binary = cache.resolve("bin").resolve(name);
    Path build = RepoRoot.find().resolve("deploy/testregistry/build");
    ProcessRunner.Result result = new ProcessRunner().run(build);
    if (result.exitCode() != 0 || !Files.isExecutable(binary)) {
      throw new IllegalStateException(
          build + " failed (exit " + result.exitCode() + "):\n" + result.tail(40));
    }
    return binary;
  }

  public static OciRegistry start(Path dir, Options options) throws Exception {
    Path binary = tool("oci-registry");
    Files.createDirectories(dir);
    TestPki authority = TestPki.create("test CA");
    TestPki.Issued ca = authority.authority();
    TestPki.Issued client = authority.client("test client", TestPki.KeyType.EC);
    boolean tls = options.tls() || options.mutualTls();
    StringBuilder config = new StringBuilder();
    int port = freePort();
    config
        .append("version: 0.1\n")
        .append("log:\n  level: info\n  formatter: json\n  accesslog:\n    disabled: true\n")
        .append("storage:\n  filesystem:\n    rootdirectory: ")
        .append(dir.resolve("storage"))
        .append("\n  delete:\n    enabled: true\n")
        .append("http:\n  addr: 127.0.0.1:")
        .append(port)
        .append("\n  secret: ")
        .append(UUID.randomUUID())
        .append('\n');
    TestPki.Issued server = authority.server(TestPki.KeyType.EC);
    if (tls) {
      server.write(dir.resolve("server.crt"), dir.resolve("server.key"));
      Files.writeString(dir.resolve("ca.crt"), ca.certificatePem());
      config
          .append("  tls:\n    certificate: ")
          .append(dir.resolve("server.crt"))
          .append("\n    key: ")
          .append(dir.resolve("server.key"))
          .append('\n');
      if (options.mutualTls()) {
        config.append("    clientcas:\n      - ").append(dir.resolve("ca.crt")).append('\n');
      }
    }
    HttpServer tokenServer = null;
    AtomicInteger issued = new AtomicInteger();
    if (options.auth() == Auth.TOKEN) {
      TestPki.Issued signer = TestPki.create("token signer").authority();
      Files.writeString(dir.resolve("token.crt"), signer.certificatePem());
      tokenServer = tokenServer(signer, issued, tls ? server : null);
      config
          .append("auth:\n  token:\n    realm: ")
          .append(tls ? "https" : "http")
          .append("://127.0.0.1:")
          .append(tokenServer.getAddress().getPort())
          .append("/token\n    service: capstan-test-registry\n    issuer: capstan-test\n")
          .append("    rootcertbundle: ")
          .append(dir.resolve("token.crt"))
          .append('\n');
    }
    Files.writeString(dir.resolve("config.yml"), config);
    Path log = dir.resolve("registry.log");
    Process process =
        new ProcessBuilder(binary.toString(), "serve", dir.resolve("config.yml").toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    OciRegistry registry =
        new OciRegistry(process, port, dir, log, options, ca, client, tokenServer, issued);
    registry.awaitListening();
    return registry;
  }

  /** {@code 127.0.0.1:<port>}. */
  public String host() {
    return "127.0.0.1:" + port;
  }

  /** {@code oci://127.0.0.1:<port>/<repository>}. */
  public String url(String repository) {
    return "oci://" + host() + "/" + repository;
  }

  public TestPki.Issued ca() {
    return ca;
  }

  /** A client certificate the registry accepts under mutual TLS. */
  public TestPki.Issued client() {
    return client;
  }

  public Path caFile() {
    return dir.resolve("ca.crt");
  }

  /** A {@code kubernetes.io/dockerconfigjson} Secret's {@code .dockerconfigjson} for this host. */
  public String dockerConfigJson(String username, String password) {
    String auth =
        Base64.getEncoder()
            .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    return "{\"auths\":{\"" + host() + "\":{\"auth\":\"" + auth + "\"}}}";
  }

  /** Tokens the token service issued so far. */
  public int tokensIssued() {
    return tokensIssued.get();
  }

  /**
   * The requests the registry completed so far, as {@code METHOD path} lines from its log, in
   * order.
   */
  public List<String> requests() throws IOException {
    return Files.readAllLines(log).stream()
        .filter(l -> l.contains("\"response completed\""))
        .map(OciRegistry::requestOf)
        .toList();
  }

  private static String requestOf(String line) {
    return field(line, "http.request.method") + " " + field(line, "http.request.uri");
  }

  private static String field(String json, String name) {
    String key = "\"" + name + "\":\"";
    int at = json.indexOf(key);
    if (at < 0) {
      return "";
    }
    int end = json.indexOf('"', at + key.length());
    return json.substring(at + key.length(), end);
  }

  /** The blob files of the registry's storage, to tamper with. */
  public Path blobData(String digest) {
    String hex = digest.substring("sha256:".length());
    return dir.resolve("storage/docker/registry/v2/blobs/sha256")
        .resolve(hex.substring(0, 2))
        .resolve(hex)
        .resolve("data");
  }

  private void awaitListening() throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the registry exited " + process.exitValue() + ":\n" + Files.readString(log));
      }
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    throw new IllegalStateException("the registry did not listen within 30 s");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** The token service; over https with {@code tls}'s certificate when it is given. */
  private static HttpServer tokenServer(
      TestPki.Issued signer, AtomicInteger issued, TestPki.Issued tls) throws Exception {
    InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    HttpServer server;
    if (tls == null) {
      server = HttpServer.create(address, 0);
    } else {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "server", tls.keys().getPrivate(), new char[0], new Certificate[] {tls.certificate()});
      KeyManagerFactory managers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      managers.init(keys, new char[0]);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(managers.getKeyManagers(), null, null);
      HttpsServer https = HttpsServer.create(address, 0);
      https.setHttpsConfigurator(new HttpsConfigurator(context));
      server = https;
    }
    server.createContext("/token", exchange -> token(exchange, signer, issued));
    server.start();
    return server;
  }

  private static void token(HttpExchange exchange, TestPki.Issued signer, AtomicInteger issued)
      throws IOException {
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((USERNAME + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    String given = exchange.getRequestHeaders().getFirst("Authorization");
    if (!expected.equals(given)) {
      exchange.sendResponseHeaders(401, -1);
      exchange.close();
      return;
    }
    String query = exchange.getRequestURI().getQuery();
    String scope = "";
    for (String part : query == null ? new String[0] : query.split("&")) {
      if (part.startsWith("scope=")) {
        scope = URLDecoder.decode(part.substring(6), StandardCharsets.UTF_8);
      }
    }
    String[] pieces = scope.split(":");
    String name = pieces.length == 3 ? pieces[1] : "";
    String actions = pieces.length == 3 ? pieces[2] : "";
    byte[] body =
        ("{\"token\":\"" + jwt(signer, name, actions) + "\",\"expires_in\":300}")
            .getBytes(StandardCharsets.UTF_8);
    issued.incrementAndGet();
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  private static String jwt(TestPki.Issued signer, String repository, String actions) {
    try {
      Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
      String x5c = Base64.getEncoder().encodeToString(signer.certificate().getEncoded());
      String header = "{\"alg\":\"ES256\",\"typ\":\"JWT\",\"x5c\":[\"" + x5c + "\"]}";
      long now = Instant.now().getEpochSecond();
      StringBuilder actionList = new StringBuilder();
      for (String action : actions.split(",")) {
        if (!action.isEmpty()) {
          actionList
              .append(actionList.length() == 0 ? "" : ",")
              .append('"')
              .append(action)
              .append('"');
        }
      }
      String claims =
          "{\"iss\":\"capstan-test\",\"sub\":\""
              + USERNAME
              + "\",\"aud\":\"capstan-test-registry\","
              + "\"exp\":"
              + (now + 300)
              + ",\"nbf\":"
              + (now - 60)
              + ",\"iat\":"
              + now
              + ",\"jti\":\""
              + UUID.randomUUID()
              + "\",\"access\":[{\"type\":\"repository\","
              + "\"name\":\""
              + repository
              + "\",\"actions\":["
              + actionList
              + "]}]}";
      String signingInput =
          url.encodeToString(header.getBytes(StandardCharsets.UTF_8))
              + "."
              + url.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
      Signature signature = Signature.getInstance("SHA256withECDSAinP1363Format");
      signature.initSign(signer.keys().getPrivate());
      signature.update(signingInput.getBytes(StandardCharsets.US_ASCII));
      return signingInput + "." + url.encodeToString(signature.sign());
    } catch (Exception e) {
      throw new IllegalStateException("cannot sign a test token", e);
    }
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    if (tokenServer != null) {
      tokenServer.stop(0);
    }
  }

  /** A name for the options, for test output. */
  @Override
  public String toString() {
    return "OciRegistry[" + host() + ", " + options + "]";
  }

  /** Environment for the ORAS client: its own config directory, no user's credentials. */
  public Map<String, String> orasEnvironment() {
    return Map.of("DOCKER_CONFIG", dir.resolve("oras-config").toString(), "HOME", dir.toString());
  }
}
