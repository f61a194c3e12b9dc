package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warnings about a replica's Lease, as Events on that Lease ({@code kubectl describe lease} and
 * {@code kubectl get events} show them): what an operator must fix, such as two processes given one
 * replica name.
 */
final class LeaseEvents {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseEvents.class);
  private static final String COMPONENT = "capstan-shards";

  private final KubernetesClient client;
  private final String namespace;

  LeaseEvents(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** A Warning on the Lease {@code lease}; failing to write it is only logged. */
  void warn(String lease, String reason, String message, Instant now) {
    String time = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    Event event =
        new EventBuilder()
            .withNewMetadata()
            .withName(lease + "." + UUID.randomUUID().toString().substring(0, 8))
            .withNamespace(namespace)
            .endMetadata()
            .withNewInvolvedObject()
            .withApiVersion("coordination.k8s.io/v1")
            .withKind("Lease")
            .withName(lease)
            .withNamespace(namespace)
            .endInvolvedObject()
            .withType("Warning")
            .withReason(reason)
            .withMessage(message)
            .withCount(1)
            .withFirstTimestamp(time)
            .withLastTimestamp(time)
            .withNewSource()
            .withComponent(COMPONENT)
            .endSource()
            .withReportingComponent(COMPONENT)
            .build();
    try {
      client.v1().events().inNamespace(namespace).resource(event).create();
    } catch (KubernetesClientException e) {
      LOG.debug("could not write the Event {}: HTTP {}", reason, e.getCode());
    }
  }
}
