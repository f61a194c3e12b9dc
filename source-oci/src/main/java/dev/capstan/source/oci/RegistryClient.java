package dev.capstan.source.oci;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;

/**
 * Requests to one repository of an OCI registry (the distribution specification's HTTP API),
 * authenticated as the registry asks: a bearer token from its token service (cached until shortly
 * before it expires) or basic credentials. Credentials go to the registry's origin and its token
 * realm only, never across a redirect to another origin, and never over plain http unless the
 * source is {@code insecure}. Every request gets the time left before the deadline, and every body
 * is read before it ({@link ReadDeadlines}).
 */
final class RegistryClient {
  static final int MAX_TOKEN_BYTES = 1 << 20;
  private static final int MAX_REDIRECTS = 5;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http;
  private final String base;
  private final OciUrl url;
  private final Optional<RegistryCredentials> credentials;
  private final TokenCache tokens;
  private final String actions;
  private final Instant deadline;
  private final Clock clock;
  private final boolean insecure;
  private final ReadDeadlines reads;

  RegistryClient(
      HttpClient http,
      String scheme,
      OciUrl url,
      Optional<RegistryCredentials> credentials,
      TokenCache tokens,
      String actions,
      Instant deadline,
      Clock clock,
      boolean insecure,
      ReadDeadlines reads) {
    this.http = http;
    this.base = scheme + "://" + url.registry();
    this.url = url;
    this.credentials = credentials;
    this.tokens = tokens;
    this.actions = actions;
    this.deadline = deadline;
    this.clock = clock;
    this.insecure = insecure;
    this.reads = reads;
  }

  OciUrl url() {
    return url;
  }

  /** {@code /v2/<name>/<rest>} on the registry. */
  URI uri(String rest) {
    return URI.create(base + "/v2/" + url.repository() + "/" + rest);
  }

  HttpRequest.Builder request(URI uri) {
    return HttpRequest.newBuilder(uri).timeout(remaining()).header("User-Agent", "capstan");
  }

  /**
   * Sends the request with the registry's authorization when it is for the registry's own origin,
   * answering one challenge of that origin's; follows redirects (without credentials to another
   * origin). The caller closes the body.
   */
  HttpResponse<InputStream> send(HttpRequest.Builder request) {
    String key = authKey();
    // A URL the registry named (an upload's Location) may be elsewhere: it gets no credentials.
    boolean ownOrigin = sameOrigin(request.copy().build().uri(), origin());
    Optional<String> cached = ownOrigin ? tokens.header(key) : Optional.empty();
    cached.ifPresent(h -> request.setHeader("Authorization", h));
    HttpResponse<InputStream> response = follow(request, cached.orElse(null));
    if (response.statusCode() != 401) {
      return response;
    }
    close(response);
    if (!sameOrigin(response.request().uri(), origin())) {
      // A redirect target's challenge would choose where the credentials go: not answered.
      throw new SourceException(
          FailureReason.AUTHENTICATION_FAILED,
          Safe.text(response.request().uri().getHost())
              + ", another origin than the registry "
              + url.registry()
              + "'s, asked for credentials: they go to the registry and its token realm only");
    }
    String challenge = response.headers().firstValue("WWW-Authenticate").orElse(null);
    tokens.forget(key);
    String header = authorize(challenge, key);
    request.setHeader("Authorization", header);
    HttpResponse<InputStream> again = follow(request, header);
    if (again.statusCode() == 401) {
      close(again);
      tokens.forget(key);
      throw refused();
    }
    return again;
  }

  private HttpResponse<InputStream> follow(HttpRequest.Builder request, String authorization) {
    HttpRequest current = request.timeout(remaining()).build();
    for (int hop = 0; ; hop++) {
      HttpResponse<InputStream> response = exchange(current);
      int status = response.statusCode();
      boolean redirect =
          status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
      if (!redirect) {
        return response;
      }
      String location = response.headers().firstValue("Location").orElse(null);
      close(response);
      if (location == null || hop >= MAX_REDIRECTS) {
        throw pullFailed(
            "the registry redirected without a location or more than " + MAX_REDIRECTS + " times");
      }
      URI next = current.uri().resolve(location);
      if (!"https".equals(next.getScheme()) && !("http".equals(next.getScheme()) && insecure)) {
        throw pullFailed("the registry redirected to a URL that is not https");
      }
      HttpRequest.Builder builder =
          HttpRequest.newBuilder(next).timeout(remaining()).header("User-Agent", "capstan");
      HttpRequest previous = current;
      previous
          .headers()
          .map()
          .forEach(
              (name, values) -> {
                boolean auth = name.equalsIgnoreCase("Authorization");
                if (!name.equalsIgnoreCase("User-Agent")
                    && (!auth || sameOrigin(next, previous.uri()))) {
                  values.forEach(v -> builder.header(name, v));
                }
              });
      if (authorization != null && sameOrigin(next, URI.create(base))) {
        builder.setHeader("Authorization", authorization);
      }
      current = builder.method(current.method(), HttpRequest.BodyPublishers.noBody()).build();
    }
  }

  private HttpResponse<InputStream> exchange(HttpRequest request) {
    try {
      // The request's timeout ends with the headers: the body is read within the deadline too.
      return http.send(
          request,
          reads.handler(
              deadline, FailureReason.OCI_PULL_FAILED, "timed out talking to the registry"));
    } catch (HttpTimeoutException e) {
      throw new SourceException(FailureReason.OCI_PULL_FAILED, "timed out talking to the registry");
    } catch (SSLHandshakeException e) {
      throw pullFailed(
          "the TLS handshake with "
              + request.uri().getHost()
              + " failed: its certificate is not trusted (spec.certSecretRef's ca.crt), or it "
              + "asks for a client certificate (tls.crt and tls.key)");
    } catch (IOException e) {
      throw pullFailed(
          "cannot reach the registry "
              + url.registry()
              + " ("
              + e.getClass().getSimpleName()
              + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw pullFailed("interrupted");
    }
  }

  private String authorize(String challengeHeader, String key) {
    BearerChallenge challenge = BearerChallenge.parse(challengeHeader).orElseThrow(this::refused);
    if (challenge.isBasic()) {
      RegistryCredentials creds = credentials.orElseThrow(this::refused);
      String header = basic(creds);
      tokens.put(key, header, clock.instant().plus(Duration.ofHours(1)));
      return header;
    }
    if (challenge.realm() == null) {
      throw pullFailed("the registry's bearer challenge names no realm");
    }
    URI realm;
    try {
      realm = URI.create(challenge.realm());
    } catch (IllegalArgumentException e) {
      throw pullFailed("the registry's token realm is not a URL");
    }
    boolean plain = "http".equals(realm.getScheme());
    if (!"https".equals(realm.getScheme()) && !plain) {
      throw pullFailed("the registry's token realm is not an http(s) URL");
    }
    if (plain && credentials.isPresent() && !insecure) {
      throw new SourceException(
          FailureReason.AUTHENTICATION_FAILED,
          "the registry's token realm is plain http: credentials are not sent there unless "
              + "spec.insecure is true");
    }
    String scope = "repository:" + url.repository() + ":" + actions;
    StringBuilder query = new StringBuilder(challenge.realm());
    query.append(challenge.realm().contains("?") ? '&' : '?');
    if (challenge.service() != null) {
      query.append("service=").append(encode(challenge.service())).append('&');
    }
    query.append("scope=").append(encode(scope));
    HttpRequest.Builder tokenRequest =
        HttpRequest.newBuilder(URI.create(query.toString()))
            .timeout(remaining())
            .header("User-Agent", "capstan");
    credentials.ifPresent(c -> tokenRequest.header("Authorization", basic(c)));
    HttpResponse<InputStream> response = exchange(tokenRequest.GET().build());
    byte[] body;
    try (InputStream in = response.body()) {
      body = Bounded.read(in, MAX_TOKEN_BYTES, "the token response");
    } catch (IOException e) {
      throw pullFailed("cannot read the token response");
    }
    if (response.statusCode() == 401 || response.statusCode() == 403) {
      throw refused();
    }
    if (response.statusCode() != 200) {
      throw pullFailed("the token service answered " + response.statusCode());
    }
    return bearer(body, key);
  }

  private String bearer(byte[] body, String key) {
    try {
      JsonNode json = JSON.readTree(body);
      String token = json.path("token").asText(json.path("access_token").asText(""));
      if (token.isEmpty()) {
        throw pullFailed("the token service answered without a token");
      }
      long seconds = Math.max(60, json.path("expires_in").asLong(60));
      String header = "Bearer " + token;
      // Kept for nine tenths of its life: the last seconds are the clock skew's.
      tokens.put(key, header, clock.instant().plusSeconds(seconds * 9 / 10));
      return header;
    } catch (IOException e) {
      throw pullFailed("the token service's answer is not JSON");
    }
  }

  private SourceException refused() {
    return new SourceException(
        FailureReason.AUTHENTICATION_FAILED,
        credentials.isPresent()
            ? "the registry " + url.registry() + " refused the credentials"
            : "the registry " + url.registry() + " requires credentials and none were given");
  }

  SourceException pullFailed(String message) {
    return new SourceException(FailureReason.OCI_PULL_FAILED, message);
  }

  Duration remaining() {
    Duration left = Duration.between(clock.instant(), deadline);
    if (left.isNegative() || left.isZero()) {
      throw new SourceException(FailureReason.OCI_PULL_FAILED, "timed out talking to the registry");
    }
    return left;
  }

  private String authKey() {
    String who =
        credentials
            .map(c -> ArtifactStore.sha256Hex(c.username() + "\0" + c.password()))
            .orElse("anonymous");
    return String.join("|", base, url.repository(), actions, who);
  }

  private static String basic(RegistryCredentials c) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((c.username() + ":" + c.password()).getBytes(StandardCharsets.UTF_8));
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** Whether the two URLs have one origin: scheme, host (in any case) and port. */
  static boolean sameOrigin(URI a, URI b) {
    return Objects.equals(a.getScheme(), b.getScheme())
        && a.getHost() != null
        && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  /** The registry's own origin, {@code scheme://host[:port]}. */
  URI origin() {
    return URI.create(base);
  }

  private static int port(URI uri) {
    return uri.getPort() >= 0 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
  }

  static void close(HttpResponse<InputStream> response) {
    try {
      response.body().close();
    } catch (IOException ignored) {
      // nothing more is read from it
    }
  }
}
