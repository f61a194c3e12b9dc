package dev.capstan.source.helm;

import dev.capstan.source.core.BoundedBody;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * One GET from a Helm repository, of its index.yaml or of a chart: basic authentication from {@code
 * secretRef}, sent to the repository's own origin only (scheme, host and port) unless {@code
 * passCredentials}, and over plain http only with {@code insecure}; redirects followed here, at
 * most {@link #MAX_REDIRECTS}, never from https to http unless {@code insecure}; the previous
 * index's validators sent, so that an unchanged index is answered 304; the body ended at the
 * deadline and at the size bound.
 */
final class RepositoryDownload {
  static final int MAX_REDIRECTS = 10;

  /**
   * What one kind of download is called and how it fails: the index ({@code Failed}) or a chart
   * ({@code ChartPullFailed}), each with its own size bound.
   *
   * @param noun the downloaded thing in messages ({@code index.yaml}, {@code the chart})
   * @param bound the size bound's name in messages ({@code the bound of an index})
   */
  record Kind(String noun, String bound, FailureReason reason, long maxBytes) {}

  /** What the server answered: the index has not changed, or its body. */
  sealed interface Answer {}

  record NotModified() implements Answer {}

  /** The body of a changed index, to be read before the deadline and closed. */
  record Body(InputStream in, Validators validators) implements Answer {}

  private final HttpClients clients;
  private final ReadDeadlines reads;
  private final Clock clock;
  private final Kind kind;
  private final long maxBytes;

  RepositoryDownload(HttpClients clients, ReadDeadlines reads, Clock clock, Kind kind) {
    this.clients = clients;
    this.reads = reads;
    this.clock = clock;
    this.kind = kind;
    this.maxBytes = kind.maxBytes();
  }

  /** The repository's index.yaml. */
  Answer get(HelmIndexRequest request, Validators previous, Instant deadline) {
    URI repository = RepositoryUrl.parse(request.target().url());
    return get(request, RepositoryUrl.index(repository), previous, deadline);
  }

  /**
   * {@code at} (the index or a chart's URL, resolved against the repository's) with the
   * repository's credentials and TLS.
   */
  Answer get(HelmIndexRequest request, URI first, Validators previous, Instant deadline) {
    URI repository = RepositoryUrl.parse(request.target().url());
    BasicCredentials credentials = BasicCredentials.of(request.credentials());
    if (credentials != null && repository.getScheme().equals("http") && !request.insecure()) {
      throw new SourceException(
          FailureReason.INVALID_URL,
          "spec.secretRef's credentials would be sent over plain http; use https, or set "
              + "spec.insecure to allow it");
    }
    HttpClient http = clients.client(request.certSecret());
    URI at = first;
    for (int redirects = 0; ; redirects++) {
      // passCredentials sends them to other hosts too, but never in clear text unless insecure.
      boolean sendCredentials =
          credentials != null
              && (request.passCredentials() || sameOrigin(repository, at))
              && (request.insecure() || "https".equals(at.getScheme()));
      HttpResponse<InputStream> response =
          send(
              http,
              requestOf(at, previous, sendCredentials ? credentials : null, deadline),
              at,
              deadline);
      int status = response.statusCode();
      if (status >= 300 && status < 400 && status != 304) {
        close(response);
        at = redirected(at, response, redirects, request.insecure());
        continue;
      }
      return answer(response, at, previous, credentials != null);
    }
  }

  private Answer answer(
      HttpResponse<InputStream> response, URI at, Validators previous, boolean credentials) {
    int status = response.statusCode();
    if (status == 304 && previous.any()) {
      close(response);
      return new NotModified();
    }
    if (status == 401 || status == 403) {
      close(response);
      throw new SourceException(
          FailureReason.AUTHENTICATION_FAILED,
          "GET "
              + shown(at)
              + " answered HTTP "
              + status
              + (credentials
                  ? ": the credentials of spec.secretRef were refused"
                  : ": the repository needs credentials (spec.secretRef)"));
    }
    if (status != 200) {
      close(response);
      throw new SourceException(kind.reason(), "GET " + shown(at) + " answered HTTP " + status);
    }
    long declared = response.headers().firstValueAsLong("Content-Length").orElse(-1);
    if (declared > maxBytes) {
      close(response);
      throw tooLarge();
    }
    return new Body(
        new BoundedBody(response.body(), maxBytes, this::tooLarge),
        Validators.of(response.headers()));
  }

  private HttpRequest requestOf(
      URI at, Validators previous, BasicCredentials credentials, Instant deadline) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(at).GET().timeout(remaining(deadline)).header("Accept", "*/*");
    if (credentials != null) {
      request.header("Authorization", credentials.header());
    }
    return previous.ask(request).build();
  }

  private HttpResponse<InputStream> send(
      HttpClient http, HttpRequest request, URI at, Instant deadline) {
    try {
      return http.send(
          request,
          reads.handler(
              deadline, kind.reason(), "timed out downloading " + shown(at) + " (spec.timeout)"));
    } catch (HttpTimeoutException e) {
      throw new SourceException(
          kind.reason(), "timed out downloading " + shown(at) + " (spec.timeout)");
    } catch (IOException e) {
      SSLException tls = tlsCause(e);
      if (tls != null) {
        throw new SourceException(
            kind.reason(),
            "TLS with " + at.getHost() + " failed: " + Objects.toString(tls.getMessage(), ""));
      }
      throw new SourceException(
          kind.reason(),
          "GET "
              + shown(at)
              + " failed: "
              + e.getClass().getSimpleName()
              + Optional.ofNullable(e.getMessage()).map(m -> " " + m).orElse(""));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SourceException(kind.reason(), "interrupted downloading " + shown(at));
    }
  }

  /** The TLS failure behind {@code e}, which the client may wrap in a connection failure. */
  private static SSLException tlsCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLException tls) {
        return tls;
      }
    }
    return null;
  }

  private URI redirected(
      URI from, HttpResponse<InputStream> response, int redirects, boolean insecure) {
    if (redirects >= MAX_REDIRECTS) {
      throw new SourceException(
          kind.reason(), "more than " + MAX_REDIRECTS + " redirects from " + shown(from));
    }
    String location =
        response
            .headers()
            .firstValue("Location")
            .orElseThrow(
                () ->
                    new SourceException(
                        kind.reason(), shown(from) + " answered a redirect without a Location"));
    URI to;
    try {
      to = from.resolve(location);
    } catch (IllegalArgumentException e) {
      throw new SourceException(kind.reason(), shown(from) + " redirected to an invalid URL");
    }
    if (to.getScheme() == null
        || !(to.getScheme().equals("https") || to.getScheme().equals("http"))) {
      throw new SourceException(
          kind.reason(), shown(from) + " redirected to a URL that is not http(s)");
    }
    if (from.getScheme().equals("https") && to.getScheme().equals("http") && !insecure) {
      throw new SourceException(
          kind.reason(),
          shown(from) + " redirected from https to plain http; set spec.insecure to allow it");
    }
    return to;
  }

  static boolean sameOrigin(URI a, URI b) {
    return a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost() != null
        && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  private static int port(URI uri) {
    return uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equals("https") ? 443 : 80;
  }

  private Duration remaining(Instant deadline) {
    Duration left = Duration.between(clock.instant(), deadline);
    if (left.isNegative() || left.isZero()) {
      throw new SourceException(kind.reason(), "timed out (spec.timeout)");
    }
    return left;
  }

  private SourceException tooLarge() {
    return new SourceException(
        kind.reason(),
        kind.noun() + " is larger than " + maxBytes + " bytes (" + kind.bound() + ")");
  }

  private static String shown(URI uri) {
    return Redaction.scrubUrl(uri.toString());
  }

  private static void close(HttpResponse<InputStream> response) {
    try {
      response.body().close();
    } catch (IOException | RuntimeException ignored) {
      // the answer is already read; the connection is the client's to drop
    }
  }

  /** Basic authentication from a Secret's {@code username} and {@code password}. */
  record BasicCredentials(String username, String password) {
    /**
     * The credentials of {@code data}; null when it holds neither entry.
     *
     * @throws SourceException {@code InvalidSecret} when it holds one without the other
     */
    static BasicCredentials of(Map<String, byte[]> data) {
      byte[] user = data.get("username");
      byte[] password = data.get("password");
      if (user == null && password == null) {
        return null;
      }
      if (user == null || password == null) {
        throw new SourceException(
            FailureReason.INVALID_SECRET,
            "the secret has '"
                + (user == null ? "password" : "username")
                + "' but no '"
                + (user == null ? "username" : "password")
                + "': basic authentication needs both");
      }
      return new BasicCredentials(
          new String(user, StandardCharsets.UTF_8), new String(password, StandardCharsets.UTF_8));
    }

    String header() {
      return "Basic "
          + Base64.getEncoder()
              .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
      return "BasicCredentials[username=<redacted>, password=<redacted>]";
    }
  }
}
