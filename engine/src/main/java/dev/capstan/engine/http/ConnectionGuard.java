package dev.capstan.engine.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Enforces {@link ServerLimits} on each connection of one connector: closes connections over the
 * caps as soon as they open, and closes a connection whose headers are not complete by the header
 * deadline or that is still open at the connection deadline. Jetty reads headers without holding a
 * thread, so a slow client costs a connection slot, never a worker; these deadlines bound how long
 * it holds even the slot, including a client trickling one byte at a time (which an idle timeout
 * alone would never cut off).
 */
final class ConnectionGuard implements Connection.Listener {
  private final ServerLimits limits;
  private final Scheduler scheduler;
  private final AtomicInteger open = new AtomicInteger();
  private final Map<InetAddress, Integer> perClient = new ConcurrentHashMap<>();
  private final Map<EndPoint, Deadlines> deadlines = new ConcurrentHashMap<>();

  private record Deadlines(Scheduler.Task headers, Scheduler.Task connection, InetAddress client) {}

  ConnectionGuard(ServerLimits limits, Scheduler scheduler) {
    this.limits = limits;
    this.scheduler = scheduler;
  }

  @Override
  public void onOpened(Connection connection) {
    EndPoint endPoint = connection.getEndPoint();
    InetAddress client = clientOf(endPoint.getRemoteSocketAddress());
    int total = open.incrementAndGet();
    int fromClient = perClient.merge(client, 1, Integer::sum);
    deadlines.put(
        endPoint,
        new Deadlines(
            scheduler.schedule(endPoint::close, limits.headerTimeout()),
            scheduler.schedule(endPoint::close, limits.connectionTimeout()),
            client));
    if (total > limits.maxConnections() || fromClient > limits.maxConnectionsPerClient()) {
      endPoint.close();
    }
  }

  @Override
  public void onClosed(Connection connection) {
    Deadlines closed = deadlines.remove(connection.getEndPoint());
    if (closed == null) {
      return;
    }
    closed.headers().cancel();
    closed.connection().cancel();
    open.decrementAndGet();
    perClient.computeIfPresent(closed.client(), (address, count) -> count > 1 ? count - 1 : null);
  }

  /**
   * The request's headers are complete: the header deadline no longer applies to this connection.
   */
  void headersComplete(EndPoint endPoint) {
    Deadlines current = deadlines.get(endPoint);
    if (current != null) {
      current.headers().cancel();
    }
  }

  int openConnections() {
    return open.get();
  }

  private static InetAddress clientOf(SocketAddress address) {
    return address instanceof InetSocketAddress inet && inet.getAddress() != null
        ? inet.getAddress()
        : InetAddress.getLoopbackAddress();
  }
}
