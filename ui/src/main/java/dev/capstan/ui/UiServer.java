package dev.capstan.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.engine.http.GuardedServer;
import dev.capstan.engine.http.ServerLimits;
import dev.capstan.engine.kustomization.ReferenceRules;
import dev.capstan.health.cel.BuiltinLibrary;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code capstan ui}: a local web view of the cluster's Kustomizations, HelmReleases and sources,
 * served with the client it is given (the user's own credentials: what they may list and patch is
 * what they see and do). One informer per kind feeds every page through Server-Sent Events.
 */
public final class UiServer implements AutoCloseable {
  /**
   * Connections: a page holds one event stream (re-opened by the browser when the connection
   * deadline closes it) and fetches one thing at a time.
   */
  static final ServerLimits LIMITS =
      new ServerLimits(
          Duration.ofSeconds(5), Duration.ofMinutes(10), Duration.ofSeconds(45), 128, 64, 8);

  private final GuardedServer server;
  private final Catalog catalog;
  private final EventStream events;
  private final ScheduledExecutorService scheduler;
  private final DriftParts drift;
  private final AccessGate access;

  private UiServer(
      GuardedServer server,
      Catalog catalog,
      EventStream events,
      ScheduledExecutorService scheduler,
      DriftParts drift,
      AccessGate access) {
    this.server = server;
    this.catalog = catalog;
    this.events = events;
    this.scheduler = scheduler;
    this.drift = drift;
    this.access = access;
  }

  /**
   * Starts the watches and serves the view as {@code options} say. Nothing is served without the
   * token of {@link #url()}, made anew at each start.
   */
  public static UiServer start(KubernetesClient client, UiOptions options) throws IOException {
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "capstan-ui-events");
              t.setDaemon(true);
              return t;
            });
    EventStream events = new EventStream(scheduler);
    GraphView graph = new GraphView(new GraphLayout());
    AtomicReference<Catalog> started = new AtomicReference<>();
    LayoutAhead ahead =
        new LayoutAhead(() -> graph.svg(Graph.of(started.get().kustomizations()), Set.of()));
    Catalog catalog =
        new Catalog(
            client,
            options.namespaces(),
            key -> {
              events.changed(key);
              // The graph draws Kustomizations alone: nothing else is worth laying it out again.
              if (key.equals(EventStream.EVERYTHING) || key.startsWith("Kustomization/")) {
                ahead.changed();
              }
            },
            options.clock());
    started.set(catalog);
    catalog.start();
    DriftParts drift = null;
    try {
      Clock clock = options.clock();
      ReferenceRules rules = new ReferenceRules(options.noCrossNamespaceRefs());
      drift = DriftParts.start(catalog, client, rules, scheduler, options.driftTimeout(), clock);
      SecureRandom random = new SecureRandom();
      AccessGate access = new AccessGate(random);
      UiHandler handler =
          new UiHandler(
              catalog,
              graph,
              new DetailsReader(
                  catalog, client, new InventoryGroups(client, BuiltinLibrary.load(), clock)),
              drift.view(),
              new Actions(client, rules, clock),
              events,
              access,
              new RequestGuard(random, HostAllowList.of(options.address(), options.allowedHosts())),
              new ObjectMapper());
      GuardedServer server =
          GuardedServer.start("capstan-ui-http", options.address(), LIMITS, handler);
      return new UiServer(server, catalog, events, scheduler, drift, access);
    } catch (IOException | RuntimeException e) {
      catalog.close();
      scheduler.shutdownNow();
      if (drift != null) {
        drift.close();
      }
      throw e;
    }
  }

  /**
   * The address to open: it carries this start's token, which lets a browser in. It is a
   * credential: print it for the user once, never into a log.
   */
  public URI url() {
    return URI.create(
        "http://"
            + hostForUrl(address())
            + ":"
            + address().getPort()
            + "/?"
            + AccessGate.PARAMETER
            + "="
            + access.token());
  }

  private static String hostForUrl(InetSocketAddress address) {
    InetAddress ip = address.getAddress();
    if (ip == null || ip.isAnyLocalAddress()) {
      return "127.0.0.1";
    }
    String text = ip.getHostAddress();
    return text.contains(":") ? "[" + text + "]" : text;
  }

  /** The bound address (the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return server.address();
  }

  /** Open event streams, one per page. */
  public int openStreams() {
    return events.subscribers();
  }

  @Override
  public void close() {
    events.close();
    server.close();
    catalog.close();
    drift.close();
    scheduler.shutdownNow();
  }
}
