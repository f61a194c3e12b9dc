package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warnings about sharing the work, as Events on the object concerned ({@code kubectl describe} and
 * {@code kubectl get events} show them): what an operator must fix, such as two processes given one
 * replica name (on its Lease) or two installations owning one Kustomization (on it).
 */
final class ShardEvents {
  private static final Logger LOG = LoggerFactory.getLogger(ShardEvents.class);
  private static final String COMPONENT = "capstan-shards";

  private final KubernetesClient client;

  ShardEvents(KubernetesClient client) {
    this.client = client;
  }

  /** A Warning on {@code object}; failing to write it is only logged. */
  void warnOn(HasMetadata object, String reason, String message, Instant now) {
    String namespace = object.getMetadata().getNamespace();
    String name = object.getMetadata().getName();
    String time = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    Event event =
        new EventBuilder()
            .withNewMetadata()
            .withName(name + "." + UUID.randomUUID().toString().substring(0, 8))
            .withNamespace(namespace)
            .endMetadata()
            .withNewInvolvedObject()
            .withApiVersion(object.getApiVersion())
            .withKind(object.getKind())
            .withName(name)
            .withNamespace(namespace)
            .withUid(object.getMetadata().getUid())
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
