package dev.capstan.engine.ops;

import dev.capstan.engine.ops.server.ListenAddress;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@code capstan run} asks of the operations side.
 *
 * @param metricsAddress where /metrics, /healthz and /readyz are served
 * @param webhookAddress where webhook receivers are served (only with a webhook configuration)
 * @param webhookConfig the receivers file, if any
 * @param leaseNamespace the leader election Lease's namespace; default: the pod's, else the
 *     client's
 * @param identity this replica's name in the Lease; default: the pod name, else host name + random
 *     part
 */
public record OperationsSettings(
    ListenAddress metricsAddress,
    ListenAddress webhookAddress,
    Optional<Path> webhookConfig,
    Optional<String> leaseNamespace,
    Optional<String> identity) {

  /** Settings from the command line, filling the defaults from the pod's environment. */
  public static OperationsSettings of(
      String metricsAddress, String webhookAddress, Path webhookConfig) {
    return new OperationsSettings(
        ListenAddress.parse(metricsAddress),
        ListenAddress.parse(webhookAddress),
        Optional.ofNullable(webhookConfig),
        Optional.ofNullable(System.getenv("POD_NAMESPACE")),
        Optional.ofNullable(System.getenv("POD_NAME")));
  }
}
