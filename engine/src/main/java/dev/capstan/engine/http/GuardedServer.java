package dev.capstan.engine.http;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * An HTTP/1.1 listener that slow, stalled or numerous clients cannot take over, for the engine's
 * webhook and operations endpoints.
 *
 * <p>Why Jetty and not the JDK's {@code com.sun.net.httpserver}: the JDK server reads a request's
 * line and headers with a blocking read on one of its executor's threads, so every half-sent
 * request holds a thread until a timeout fires. Its only timeouts are the JVM-wide {@code
 * sun.net.httpserver.maxReqTime}/{@code maxRspTime} system properties, read once into static
 * fields, so they depend on how the JVM was started; and Java 17 builds differ in whether they have
 * a connection cap ({@code jdk.httpserver.maxConnections} is a later backport) at all. Jetty parses
 * headers without holding a thread, and has per-connector idle timeouts and its own thread pool; on
 * top of it {@link ConnectionGuard} adds a deadline for the headers, a deadline for the whole
 * connection and caps on open connections. Each server owns its threads, so one endpoint never
 * waits behind another.
 */
public final class GuardedServer implements AutoCloseable {
  private final Server server;
  private final ServerConnector connector;
  private final ConnectionGuard guard;

  private GuardedServer(Server server, ServerConnector connector, ConnectionGuard guard) {
    this.server = server;
    this.connector = connector;
    this.guard = guard;
  }

  /**
   * Binds {@code address} (a wildcard address: all interfaces) and serves {@code handler} under
   * {@code limits}; threads are named after {@code name}.
   *
   * @throws BindException if the address is taken
   */
  public static GuardedServer start(
      String name, InetSocketAddress address, ServerLimits limits, Handler handler)
      throws IOException {
    // One acceptor and one selector lease two threads; the rest run handlers.
    QueuedThreadPool threads = new QueuedThreadPool(limits.workerThreads() + 2, 2);
    threads.setName(name);
    threads.setDaemon(true);
    threads.setReservedThreads(0);
    Server server = new Server(threads);
    server.setStopTimeout(1000);
    ConnectionGuard guard = new ConnectionGuard(limits, server.getScheduler());
    ServerConnector connector =
        new ServerConnector(server, 1, 1, new HttpConnectionFactory(configuration(limits)));
    connector.setHost(
        address.getAddress() == null || address.getAddress().isAnyLocalAddress()
            ? null
            : address.getAddress().getHostAddress());
    connector.setPort(address.getPort());
    connector.setIdleTimeout(limits.idleTimeout().toMillis());
    connector.addBean(guard);
    server.addConnector(connector);
    server.setHandler(new HeadersComplete(guard, handler));
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly(server);
      throw bindFailure(address, e);
    }
    return new GuardedServer(server, connector, guard);
  }

  private static HttpConfiguration configuration(ServerLimits limits) {
    HttpConfiguration configuration = new HttpConfiguration();
    // One request per connection: the header deadline then bounds every request's headers,
    // not just the first on a connection.
    configuration.setPersistentConnectionsEnabled(false);
    configuration.setSendServerVersion(false);
    configuration.setSendXPoweredBy(false);
    configuration.setIdleTimeout(limits.idleTimeout().toMillis());
    return configuration;
  }

  private static IOException bindFailure(InetSocketAddress address, Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException bind) {
        BindException taken =
            new BindException("cannot listen on " + address + ": " + bind.getMessage());
        taken.initCause(e);
        return taken;
      }
    }
    return e instanceof IOException io
        ? io
        : new IOException("cannot start the server on " + address, e);
  }

  /** The bound address (the real port when 0 was asked for). */
  public InetSocketAddress address() {
    String host = connector.getHost();
    return host == null
        ? new InetSocketAddress(connector.getLocalPort())
        : new InetSocketAddress(host, connector.getLocalPort());
  }

  /** Open connections, for tests of the caps. */
  int openConnections() {
    return guard.openConnections();
  }

  @Override
  public void close() {
    stopQuietly(server);
  }

  private static void stopQuietly(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      // Stopping a server that failed to start, or at shutdown: nothing left to do.
    }
  }

  /** Tells the guard that a request's headers are complete before the handler sees it. */
  private static final class HeadersComplete extends Handler.Wrapper {
    private final ConnectionGuard guard;

    HeadersComplete(ConnectionGuard guard, Handler handler) {
      super(handler);
      this.guard = guard;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      guard.headersComplete(request.getConnectionMetaData().getConnection().getEndPoint());
      return super.handle(request, response, callback);
    }
  }
}
