package dev.capstan.ui;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How {@link UiServer} serves.
 *
 * @param address where it listens (port 0: any free one)
 * @param namespaces the namespaces watched; all of them when empty
 * @param allowedHosts names a request's Host header may give besides loopback ones and the listen
 *     address ({@code --allow-host})
 * @param noCrossNamespaceRefs refuse drift across namespaces as {@code capstan run
 *     --no-cross-namespace-refs} refuses the reconcile
 * @param driftTimeout the time one drift comparison may take: fetch, build and dry-runs together
 */
@RecordBuilder
public record UiOptions(
    InetSocketAddress address,
    List<String> namespaces,
    List<String> allowedHosts,
    boolean noCrossNamespaceRefs,
    Duration driftTimeout,
    Clock clock)
    implements UiOptionsBuilder.With {

  /** The time one drift comparison may take unless told otherwise. */
  public static final Duration DRIFT_TIMEOUT = Duration.ofSeconds(60);

  public UiOptions {
    Objects.requireNonNull(address, "address");
    namespaces = List.copyOf(namespaces);
    allowedHosts = List.copyOf(allowedHosts);
    Objects.requireNonNull(driftTimeout, "driftTimeout");
    Objects.requireNonNull(clock, "clock");
  }

  /** Every namespace, no other host names, no lockdown, the default drift deadline. */
  public static UiOptions on(InetSocketAddress address) {
    return new UiOptions(address, List.of(), List.of(), false, DRIFT_TIMEOUT, Clock.systemUTC());
  }
}
