package dev.capstan.engine.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A GitHub App's side of GitHub, as GitHub documents it, for {@link GitHttpServer}: {@code POST
 * /api/app/installations/{id}/access_tokens} answers {@code 201 {token, expires_at}} to a JSON Web
 * Token the app's key signed (RS256, issued by the app, at most ten minutes long), {@code 401} to
 * any other; and Git requests pass only with {@code x-access-token:<a token it issued and that has
 * not expired>} as basic auth.
 */
public final class GitHubAppEndpoint {
  private static final Pattern TOKEN_PATH =
      Pattern.compile("/app/installations/([0-9]+)/access_tokens");

  private final long appId;
  private final PublicKey appKey;
  private final Map<Long, Duration> lifetimes;
  private final Map<String, Instant> issued = new ConcurrentHashMap<>();
  private final List<Long> tokenRequests = new CopyOnWriteArrayList<>();

  /**
   * @param lifetimes how long the tokens of each installation the app has live
   */
  public GitHubAppEndpoint(long appId, PublicKey appKey, Map<Long, Duration> lifetimes) {
    this.appId = appId;
    this.appKey = appKey;
    this.lifetimes = Map.copyOf(lifetimes);
  }

  /** How many tokens were asked for {@code installation}, refused requests included. */
  public long tokenRequests(long installation) {
    return tokenRequests.stream().filter(i -> i == installation).count();
  }

  /** Every token issued so far. */
  public List<String> issuedTokens() {
    return List.copyOf(issued.keySet());
  }

  /** The servlet under {@code /api/*}. */
  HttpServlet api() {
    return new HttpServlet() {
      @Override
      protected void doPost(HttpServletRequest request, HttpServletResponse response)
          throws IOException {
        Matcher path = TOKEN_PATH.matcher(String.valueOf(request.getPathInfo()));
        if (!path.matches()) {
          reply(response, 404, "{\"message\":\"Not Found\"}");
          return;
        }
        long installation = Long.parseLong(path.group(1));
        tokenRequests.add(installation);
        String auth = String.valueOf(request.getHeader("Authorization"));
        if (!auth.startsWith("Bearer ") || !signedByApp(auth.substring("Bearer ".length()))) {
          reply(response, 401, "{\"message\":\"A JSON web token could not be decoded\"}");
          return;
        }
        Duration lifetime = lifetimes.get(installation);
        if (lifetime == null) {
          reply(response, 404, "{\"message\":\"Not Found\"}");
          return;
        }
        String token = "ghs_" + UUID.randomUUID().toString().replace("-", "");
        Instant expires = Instant.now().plus(lifetime).truncatedTo(ChronoUnit.SECONDS);
        issued.put(token, expires);
        reply(response, 201, "{\"token\":\"" + token + "\",\"expires_at\":\"" + expires + "\"}");
      }
    };
  }

  /** The filter in front of the Git servlet. */
  Filter git() {
    return (request, response, chain) -> {
      String auth = String.valueOf(((HttpServletRequest) request).getHeader("Authorization"));
      if (auth.startsWith("Basic ")) {
        String pair =
            new String(
                Base64.getDecoder().decode(auth.substring("Basic ".length())),
                StandardCharsets.UTF_8);
        String token = pair.startsWith("x-access-token:") ? pair.substring(15) : "";
        Instant expires = issued.get(token);
        if (expires != null && Instant.now().isBefore(expires)) {
          chain.doFilter(request, response);
          return;
        }
      }
      HttpServletResponse refused = (HttpServletResponse) response;
      refused.setHeader("WWW-Authenticate", "Basic realm=\"GitHub\"");
      refused.sendError(401);
    };
  }

  /** As GitHub checks an app's token. */
  private boolean signedByApp(String jwt) {
    try {
      String[] parts = jwt.split("\\.");
      Signature verifier = Signature.getInstance("SHA256withRSA");
      verifier.initVerify(appKey);
      verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
      if (!verifier.verify(Base64.getUrlDecoder().decode(parts[2]))) {
        return false;
      }
      JsonNode header = new ObjectMapper().readTree(Base64.getUrlDecoder().decode(parts[0]));
      JsonNode claims = new ObjectMapper().readTree(Base64.getUrlDecoder().decode(parts[1]));
      long now = Instant.now().getEpochSecond();
      return "RS256".equals(header.path("alg").asText())
          && String.valueOf(appId).equals(claims.path("iss").asText())
          && claims.path("iat").asLong() <= now
          && claims.path("exp").asLong() > now
          && claims.path("exp").asLong() - claims.path("iat").asLong() <= 600;
    } catch (Exception e) {
      return false;
    }
  }

  private static void reply(HttpServletResponse response, int status, String json)
      throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
  }
}
