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

  /** Why an Event is written: its {@code reason}, as {@code kubectl get events} shows it. */
  enum Reason {
    /** Another process renews the Lease of this replica's name. */
    REPLICA_NAME_IN_USE("ReplicaNameInUse"),
    /** A live replica of another group owns the Kustomization. */
    OWNED_BY_ANOTHER_GROUP("OwnedByAnotherGroup");

    private final String text;

    Reason(String text) {
      this.text = text;
    }

    /** The reason as written in the Event. */
    String text() {
      return text;
    }
  }

  private final KubernetesClient client;

  ShardEvents(KubernetesClient client) {
    this.client = client;
  }

  /** A Warning on {@code object}; failing to write it is only logged. */
  void warnOn(HasMetadata object, Reason reason, String message, Instant now) {
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
            .withReason(reason.text())
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
      LOG.debug("could not write the Event {}: HTTP {}", reason.text(), e.getCode());
    }
  }
}
