package dev.capstan.source.git.github;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.source.core.BoundedBody;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.tls.SecretTls;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * The GitHub API's side of a GitHub App's installation token, as GitHub documents it: the app's
 * JSON Web Token, the installation looked up by owner (organization, then user) when the Secret
 * names no ID, and {@code POST /app/installations/{id}/access_tokens}. Over the Secret's TLS
 * settings ({@code ca.crt}, {@code tls.crt}/{@code tls.key}, as the Git transport reads them); no
 * redirect is followed, each request waits at most until the fetch's deadline and at most {@link
 * #MAX_WAIT}, and an answer longer than {@link #MAX_RESPONSE_BYTES} is refused. Failures say what
 * the API answered, never the token or the key.
 */
final class GitHubApi implements InstallationTokens.Issuer {
  static final int MAX_RESPONSE_BYTES = 64 * 1024;
  static final Duration MAX_WAIT = Duration.ofSeconds(30);

  /** What an installation token may hold: it goes into an Authorization header. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_.~+/=-]{1,1024}");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Clock clock;

  GitHubApi(Clock clock) {
    this.clock = clock;
  }

  private record Answer(int status, JsonNode body) {}

  @Override
  public InstallationToken issue(
      GitHubAppSecret app, Map<String, byte[]> secretData, Instant deadline) {
    HttpClient http = client(SecretTls.read(secretData, "the secret"), deadline);
    String jwt = AppJwt.sign(app.appId(), app.privateKey(), clock.instant());
    long installation =
        app.installationId() != null
            ? app.installationId()
            : installationOf(http, app, jwt, deadline);
    URI uri = resolve(app, "/app/installations/" + installation + "/access_tokens");
    Answer answer =
        send(http, request(uri, jwt).POST(HttpRequest.BodyPublishers.noBody()), deadline, app);
    if (answer.status() != 201 && answer.status() != 200) {
      throw refused(app, answer.status(), "installation " + installation, INSTALLATION_ID_HINT);
    }
    String token = answer.body().path("token").asText("");
    if (!TOKEN.matcher(token).matches()) {
      throw malformed(app, "no usable 'token'");
    }
    try {
      return new InstallationToken(token, Instant.parse(answer.body().path("expires_at").asText()));
    } catch (DateTimeParseException e) {
      throw malformed(app, "no 'expires_at' time");
    }
  }

  private static final String INSTALLATION_ID_HINT =
      "check '" + GitHubAppSecret.INSTALLATION_ID + "'";

  /** The installation of the organization, else of the user, that the Secret names. */
  private long installationOf(HttpClient http, GitHubAppSecret app, String jwt, Instant deadline) {
    String owner = app.installationOwner();
    for (String kind : new String[] {"orgs", "users"}) {
      URI uri = resolve(app, "/" + kind + "/" + owner + "/installation");
      Answer answer = send(http, request(uri, jwt).GET(), deadline, app);
      if (answer.status() == 200 && answer.body().path("id").canConvertToLong()) {
        return answer.body().path("id").asLong();
      }
      if (answer.status() != 404) {
        throw refused(app, answer.status(), "the installation of '" + owner + "'", "");
      }
    }
    throw new SourceException(
        FailureReason.AUTHENTICATION_FAILED,
        "GitHub App "
            + app.appId()
            + " is installed for no organization or user '"
            + owner
            + "' at "
            + app.apiBase()
            + ": check '"
            + GitHubAppSecret.INSTALLATION_OWNER
            + "' and the app's installations");
  }

  private static URI resolve(GitHubAppSecret app, String path) {
    return URI.create(app.apiBase().toString() + path);
  }

  private static HttpRequest.Builder request(URI uri, String jwt) {
    return HttpRequest.newBuilder(uri)
        .header("Accept", "application/vnd.github+json")
        .header("X-GitHub-Api-Version", "2022-11-28")
        .header("User-Agent", "capstan")
        .header("Authorization", "Bearer " + jwt);
  }

  private Answer send(
      HttpClient http, HttpRequest.Builder request, Instant deadline, GitHubAppSecret app) {
    Duration left = left(deadline, app);
    try {
      HttpResponse<InputStream> response =
          http.send(
              request.timeout(min(left, MAX_WAIT)).build(),
              HttpResponse.BodyHandlers.ofInputStream());
      byte[] body = readBounded(response.body(), left(deadline, app), app);
      JsonNode json;
      try {
        json = body.length == 0 ? JSON.nullNode() : JSON.readTree(body);
      } catch (IOException e) {
        json = JSON.nullNode(); // an error page; the status says what went wrong
      }
      return new Answer(response.statusCode(), json == null ? JSON.nullNode() : json);
    } catch (HttpTimeoutException e) {
      throw timedOut(app);
    } catch (SSLException e) {
      throw new SourceException(
          FailureReason.GIT_OPERATION_FAILED,
          "the TLS handshake with the GitHub API at "
              + app.apiBase()
              + " failed ("
              + e.getClass().getSimpleName()
              + "); a private authority goes in the secret's 'ca.crt'");
    } catch (IOException e) {
      throw new SourceException(
          FailureReason.GIT_OPERATION_FAILED,
          "the GitHub API at "
              + app.apiBase()
              + " could not be reached ("
              + e.getClass().getSimpleName()
              + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw timedOut(app);
    }
  }

  /** The body, at most {@link #MAX_RESPONSE_BYTES}, read before the deadline or not at all. */
  private static byte[] readBounded(InputStream body, Duration left, GitHubAppSecret app)
      throws IOException {
    // A server that sends its answer slowly is cut off at the deadline.
    CompletableFuture<Void> cutOff =
        CompletableFuture.runAsync(
            () -> closeQuietly(body),
            CompletableFuture.delayedExecutor(left.toMillis(), TimeUnit.MILLISECONDS));
    try (body) {
      return BoundedBody.readAll(
          body,
          MAX_RESPONSE_BYTES,
          () -> malformed(app, "more than " + MAX_RESPONSE_BYTES + " bytes"));
    } finally {
      cutOff.cancel(false);
    }
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // already broken: the reader sees it
    }
  }

  private Duration left(Instant deadline, GitHubAppSecret app) {
    Duration left = Duration.between(clock.instant(), deadline);
    if (left.isNegative() || left.isZero()) {
      throw timedOut(app);
    }
    return left;
  }

  private static HttpClient client(SecretTls tls, Instant deadline) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(MAX_WAIT);
    if (tls != null) {
      try {
        builder.sslContext(tls.sslContext());
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("this JVM offers no TLS context", e);
      }
    }
    return builder.build();
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static SourceException refused(
      GitHubAppSecret app, int status, String what, String hint) {
    String where = " at " + app.apiBase();
    return switch (status) {
      case 401 ->
          new SourceException(
              FailureReason.AUTHENTICATION_FAILED,
              "the GitHub API"
                  + where
                  + " refused GitHub App "
                  + app.appId()
                  + " (401 Unauthorized): check that '"
                  + GitHubAppSecret.APP_ID
                  + "' is the app's ID and '"
                  + GitHubAppSecret.PRIVATE_KEY
                  + "' one of its current private keys");
      case 403 ->
          new SourceException(
              FailureReason.AUTHENTICATION_FAILED,
              "the GitHub API"
                  + where
                  + " forbade GitHub App "
                  + app.appId()
                  + " a token for "
                  + what
                  + " (403 Forbidden)");
      case 404 ->
          new SourceException(
              FailureReason.AUTHENTICATION_FAILED,
              "the GitHub API"
                  + where
                  + " has no "
                  + what
                  + " of GitHub App "
                  + app.appId()
                  + " (404 Not Found)"
                  + (hint.isEmpty() ? "" : ": " + hint));
      default ->
          new SourceException(
              FailureReason.GIT_OPERATION_FAILED,
              "the GitHub API" + where + " answered " + status + " to the request for " + what);
    };
  }

  private static SourceException malformed(GitHubAppSecret app, String what) {
    return new SourceException(
        FailureReason.GIT_OPERATION_FAILED,
        "the GitHub API at " + app.apiBase() + " answered the token request with " + what);
  }

  private static SourceException timedOut(GitHubAppSecret app) {
    return new SourceException(
        FailureReason.TIMEOUT,
        "the GitHub API at " + app.apiBase() + " did not answer before the fetch's timeout");
  }
}
