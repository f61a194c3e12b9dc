package dev.capstan.engine.http;

import java.time.Duration;

/**
 * What one client connection may cost a {@link GuardedServer}, fixed in code so that no JVM option
 * or environment is needed for the protection.
 *
 * @param headerTimeout time from accepting a connection to having its whole request line and
 *     headers; a client that trickles or stalls is closed when it runs out
 * @param connectionTimeout time a connection may live at all (request body, handling and response
 *     included); connections serve one request
 * @param idleTimeout time a connection may be silent while reading or writing
 * @param maxConnections open connections over all clients; more are closed on accept
 * @param maxConnectionsPerClient open connections from one IP address; more are closed on accept,
 *     so one client cannot take the slots another (the kubelet, GitHub) needs
 * @param workerThreads threads that run handlers once a request's headers are complete
 */
public record ServerLimits(
    Duration headerTimeout,
    Duration connectionTimeout,
    Duration idleTimeout,
    int maxConnections,
    int maxConnectionsPerClient,
    int workerThreads) {

  /**
   * Limits for the webhook and operations endpoints: small requests, answered in well under a
   * second.
   */
  public static final ServerLimits ENDPOINT =
      new ServerLimits(
          Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofSeconds(5), 128, 32, 4);

  public ServerLimits {
    if (headerTimeout.isNegative()
        || headerTimeout.isZero()
        || connectionTimeout.compareTo(headerTimeout) < 0
        || idleTimeout.isNegative()
        || idleTimeout.isZero()) {
      throw new IllegalArgumentException(
          "timeouts must be positive and the connection timeout at least the header timeout");
    }
    if (maxConnections < 1
        || maxConnectionsPerClient < 1
        || maxConnectionsPerClient > maxConnections
        || workerThreads < 1) {
      throw new IllegalArgumentException("connection caps and worker threads must be at least 1");
    }
  }
}
