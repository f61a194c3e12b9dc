package dev.capstan.engine.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.engine.http.GuardedServer;
import dev.capstan.engine.http.ServerLimits;
import dev.capstan.health.cel.BuiltinLibrary;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code capstan ui}: a local web view of the cluster's Kustomizations and sources, served with the
 * client it is given (the user's own credentials: what they may list and patch is what they see and
 * do). One informer per kind feeds every page through Server-Sent Events.
 */
public final class UiServer implements AutoCloseable {
  /**
   * Connections: a page holds one event stream (re-opened by the browser when the connection
   * deadline closes it) and fetches one thing at a time.
   */
  static final ServerLimits LIMITS =
      new ServerLimits(
          Duration.ofSeconds(5), Duration.ofMinutes(10), Duration.ofSeconds(45), 128, 64, 8);

  /** The time one drift comparison may take: fetch, build and the dry-runs together. */
  static final Duration DRIFT_TIMEOUT = Duration.ofSeconds(60);

  private final GuardedServer server;
  private final Catalog catalog;
  private final EventStream events;
  private final ScheduledExecutorService scheduler;
  private final DriftParts drift;

  private UiServer(
      GuardedServer server,
      Catalog catalog,
      EventStream events,
      ScheduledExecutorService scheduler,
      DriftParts drift) {
    this.server = server;
    this.catalog = catalog;
    this.events = events;
    this.scheduler = scheduler;
    this.drift = drift;
  }

  /**
   * Starts the watches and serves the view on {@code address}.
   *
   * @param allowRemote serve Host headers other than loopback ones (the caller warns the user)
   */
  public static UiServer start(
      KubernetesClient client, InetSocketAddress address, boolean allowRemote, Clock clock)
      throws IOException {
    return start(client, List.of(), address, allowRemote, clock);
  }

  /**
   * As {@link #start(KubernetesClient, InetSocketAddress, boolean, Clock)}, watching only {@code
   * namespaces} (all of them when empty), for users who may not list cluster-wide.
   */
  public static UiServer start(
      KubernetesClient client,
      List<String> namespaces,
      InetSocketAddress address,
      boolean allowRemote,
      Clock clock)
      throws IOException {
    return start(client, namespaces, address, allowRemote, clock, DRIFT_TIMEOUT);
  }

  /**
   * As {@link #start(KubernetesClient, List, InetSocketAddress, boolean, Clock)}, with the time a
   * drift comparison may take.
   */
  public static UiServer start(
      KubernetesClient client,
      List<String> namespaces,
      InetSocketAddress address,
      boolean allowRemote,
      Clock clock,
      Duration driftTimeout)
      throws IOException {
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
            List.copyOf(namespaces),
            key -> {
              events.changed(key);
              ahead.changed();
            });
    started.set(catalog);
    catalog.start();
    DriftParts drift = null;
    try {
      drift = DriftParts.start(catalog, client, scheduler, driftTimeout, clock);
      UiHandler handler =
          new UiHandler(
              catalog,
              graph,
              new DetailsReader(
                  catalog, client, new InventoryGroups(client, BuiltinLibrary.load(), clock)),
              drift.view(),
              new Actions(client, clock),
              events,
              new RequestGuard(new SecureRandom(), allowRemote),
              new ObjectMapper());
      GuardedServer server = GuardedServer.start("capstan-ui-http", address, LIMITS, handler);
      return new UiServer(server, catalog, events, scheduler, drift);
    } catch (IOException | RuntimeException e) {
      catalog.close();
      scheduler.shutdownNow();
      if (drift != null) {
        drift.close();
      }
      throw e;
    }
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
