package dev.capstan.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.Kustomization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The view's routes: the page and its bundled files, the JSON and SVG it fetches, the event stream,
 * and the actions (POST, guarded by {@link RequestGuard}).
 */
final class UiHandler extends Handler.Abstract {
  private static final Map<String, String> STATIC =
      Map.of(
          "app.js", "text/javascript; charset=utf-8",
          "app.css", "text/css; charset=utf-8");
  private static final String CSP =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

  private final Catalog catalog;
  private final GraphView graph;
  private final DetailsReader details;
  private final DriftView drift;
  private final Actions actions;
  private final EventStream events;
  private final AccessGate access;
  private final RequestGuard guard;
  private final ObjectMapper json;
  private final String page;
  private final Map<String, String> files;

  UiHandler(
      Catalog catalog,
      GraphView graph,
      DetailsReader details,
      DriftView drift,
      Actions actions,
      EventStream events,
      AccessGate access,
      RequestGuard guard,
      ObjectMapper json) {
    this.catalog = catalog;
    this.graph = graph;
    this.details = details;
    this.drift = drift;
    this.actions = actions;
    this.events = events;
    this.access = access;
    this.guard = guard;
    this.json = json;
    this.page = resource("index.html");
    this.files = Map.of("app.js", resource("app.js"), "app.css", resource("app.css"));
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    try {
      return route(request, response, callback);
    } catch (RuntimeException e) {
      // One line for the page, never a stack trace; the view keeps serving.
      return send(
          response,
          callback,
          500,
          "text/plain; charset=utf-8",
          "the view failed to answer: " + e.getClass().getSimpleName());
    }
  }

  private boolean route(Request request, Response response, Callback callback) {
    response.getHeaders().put("Content-Security-Policy", CSP);
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.getHeaders().put("Referrer-Policy", "no-referrer");
    String host = request.getHeaders().get(HttpHeader.HOST);
    Optional<String> badHost = guard.refuseHost(host);
    if (badHost.isPresent()) {
      return send(response, callback, 403, "text/plain; charset=utf-8", badHost.get());
    }
    String path = Request.getPathInContext(request);
    String method = request.getMethod();
    AccessGate.Decision decision =
        access.decide(
            path,
            request.getHttpURI().getQuery(),
            cookie(request, AccessGate.cookieName(Request.getLocalPort(request))).orElse(null),
            "GET".equals(method) && isPage(path));
    if (decision instanceof AccessGate.Refused) {
      return refuseAccess(response, callback, path);
    }
    if (decision instanceof AccessGate.Enter enter) {
      return enter(request, response, callback, enter.location());
    }
    if ("POST".equals(method) && (path.startsWith("/api/ks/") || path.startsWith("/api/hr/"))) {
      return action(request, response, callback, host, path);
    }
    if (!"GET".equals(method)) {
      return send(response, callback, 405, "text/plain; charset=utf-8", "method not allowed");
    }
    return get(request, response, callback, path);
  }

  private boolean get(Request request, Response response, Callback callback, String path) {
    if (path.equals("/")) {
      return page(request, response, callback);
    }
    if (path.startsWith("/static/") && STATIC.containsKey(path.substring(8))) {
      return send(
          response, callback, 200, STATIC.get(path.substring(8)), files.get(path.substring(8)));
    }
    if (path.equals("/api/overview")) {
      return sendJson(response, callback, 200, catalog.overview());
    }
    if (path.equals("/api/replicas")) {
      return sendJson(response, callback, 200, catalog.replicas());
    }
    if (path.equals("/api/graph.svg")) {
      Set<String> collapsed = collapsed(request);
      return send(
          response,
          callback,
          200,
          "image/svg+xml; charset=utf-8",
          graph.svg(Graph.of(catalog.kustomizations()), collapsed));
    }
    if (path.equals("/events")) {
      events.subscribe(response, callback);
      return true;
    }
    String[] parts = path.split("/");
    if (path.startsWith("/api/ks/") && parts.length == 6 && "drift".equals(parts[5])) {
      return sendFound(
          response, callback, parts, drift.current(decode(parts[3]), decode(parts[4])));
    }
    if (path.startsWith("/api/ks/") && parts.length == 5) {
      return sendFound(response, callback, parts, details.read(decode(parts[3]), decode(parts[4])));
    }
    if (path.startsWith("/api/hr/") && parts.length == 5) {
      return sendFound(
          response, callback, parts, details.readHelmRelease(decode(parts[3]), decode(parts[4])));
    }
    return send(response, callback, 404, "text/plain; charset=utf-8", "not found");
  }

  private boolean action(
      Request request, Response response, Callback callback, String host, String path) {
    String[] parts = path.split("/");
    boolean release = "hr".equals(parts[2]);
    boolean isDrift = !release && parts.length == 6 && "drift".equals(parts[5]);
    Optional<PageAction> action =
        parts.length == 6 && !isDrift ? PageAction.parse(parts[5]) : Optional.empty();
    if (action.isEmpty() && !isDrift) {
      return sendJson(response, callback, 404, new PageAction.Result(false, "no such action"));
    }
    Optional<String> refused =
        guard.refuseAction(
            host,
            request.getHeaders().get(HttpHeader.ORIGIN),
            cookie(request).orElse(null),
            request.getHeaders().get(RequestGuard.TOKEN_HEADER));
    if (refused.isPresent()) {
      return sendJson(response, callback, 403, new PageAction.Result(false, refused.get()));
    }
    if (isDrift) {
      boolean again = "1".equals(Request.extractQueryParameters(request).getValue("again"));
      return sendFound(
          response, callback, parts, drift.request(decode(parts[3]), decode(parts[4]), again));
    }
    PageAction.Result result =
        actions.run(
            release ? HelmRelease.class : Kustomization.class,
            action.get(),
            decode(parts[3]),
            decode(parts[4]));
    return sendJson(response, callback, result.ok() ? 200 : 422, result);
  }

  /** The Kustomization's or HelmRelease's answer, or 404 saying it is not in the user's view. */
  private boolean sendFound(
      Response response, Callback callback, String[] parts, Optional<?> found) {
    return found.isPresent()
        ? sendJson(response, callback, 200, found.get())
        : sendJson(
            response,
            callback,
            404,
            Map.of(
                "message",
                ("hr".equals(parts[2]) ? "HelmRelease " : "Kustomization ")
                    + decode(parts[3])
                    + "/"
                    + decode(parts[4])
                    + " is not in your view: it does not exist or you cannot list it"));
  }

  private boolean page(Request request, Response response, Callback callback) {
    String session =
        cookie(request)
            .orElseGet(
                () -> {
                  String fresh = guard.newSession();
                  Response.addCookie(
                      response,
                      HttpCookie.build(RequestGuard.COOKIE, fresh)
                          .path("/")
                          .httpOnly(true)
                          .sameSite(HttpCookie.SameSite.STRICT)
                          .build());
                  return fresh;
                });
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put("X-Frame-Options", "DENY");
    return send(
        response,
        callback,
        200,
        "text/html; charset=utf-8",
        page.replace("{{TOKEN}}", guard.token(session)));
  }

  private static Optional<String> cookie(Request request) {
    return cookie(request, RequestGuard.COOKIE);
  }

  private static Optional<String> cookie(Request request, String name) {
    return Request.getCookies(request).stream()
        .filter(c -> name.equals(c.getName()))
        .map(HttpCookie::getValue)
        .findFirst();
  }

  /**
   * The token was right: the cookie, and on to the same address without the token. The page goes on
   * itself (a refresh replaces its entry in the history): an HTTP redirect would keep the
   * navigation of whoever sent the browser here (the file {@code --open} opens, a link on another
   * site), for which the browser does not send a SameSite=Strict cookie.
   */
  private boolean enter(Request request, Response response, Callback callback, String location) {
    Response.addCookie(
        response,
        HttpCookie.build(AccessGate.cookieName(Request.getLocalPort(request)), access.cookieValue())
            .path("/")
            .httpOnly(true)
            .sameSite(HttpCookie.SameSite.STRICT)
            .build());
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    return send(
        response, callback, 200, "text/html; charset=utf-8", AccessGate.enterPage(location));
  }

  /** No cookie and no token: a page saying how to get in (JSON for the page's own requests). */
  private boolean refuseAccess(Response response, Callback callback, String path) {
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    if (path.startsWith("/api/")) {
      return sendJson(response, callback, 401, new PageAction.Result(false, AccessGate.REFUSAL));
    }
    return send(response, callback, 401, "text/html; charset=utf-8", AccessGate.REFUSAL_PAGE);
  }

  /** What a browser navigates to, as opposed to what the page fetches. */
  private static boolean isPage(String path) {
    return !path.startsWith("/api/") && !path.startsWith("/static/") && !path.equals("/events");
  }

  private static Set<String> collapsed(Request request) {
    Fields query = Request.extractQueryParameters(request);
    String value = query.getValue("collapse");
    if (value == null || value.isEmpty()) {
      return Set.of();
    }
    return Arrays.stream(value.split(","))
        .filter(s -> !s.isEmpty())
        .limit(1000)
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }

  private static String decode(String part) {
    return URLDecoder.decode(part, StandardCharsets.UTF_8);
  }

  private boolean sendJson(Response response, Callback callback, int status, Object body) {
    try {
      return send(response, callback, status, "application/json", json.writeValueAsString(body));
    } catch (JsonProcessingException e) {
      return send(response, callback, 500, "text/plain; charset=utf-8", "cannot render the answer");
    }
  }

  private static boolean send(
      Response response, Callback callback, int status, String type, String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    Content.Sink.write(response, true, body, callback);
    return true;
  }

  private static String resource(String name) {
    try (InputStream in = UiHandler.class.getResourceAsStream("static/" + name)) {
      if (in == null) {
        throw new IllegalStateException("the view's file " + name + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
