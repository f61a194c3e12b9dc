package dev.capstan.engine.ops.events;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes core/v1 Events, the kind {@code kubectl describe} and {@code kubectl get events} show. */
final class KubernetesEventSink implements EventSink {
  private final KubernetesClient client;

  KubernetesEventSink(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public void create(CorrelatedEvent e, String component) {
    Event event =
        new EventBuilder()
            .withNewMetadata()
            .withName(e.name())
            .withNamespace(e.object().eventNamespace())
            .endMetadata()
            .withInvolvedObject(e.object().reference())
            .withType(e.type().apiValue())
            .withReason(e.reason().apiValue())
            .withMessage(e.message())
            .withCount(e.count())
            .withFirstTimestamp(timestamp(e.firstTimestamp()))
            .withLastTimestamp(timestamp(e.lastTimestamp()))
            .withNewSource()
            .withComponent(component)
            .endSource()
            .withReportingComponent(component)
            .build();
    client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
  }

  @Override
  public boolean update(CorrelatedEvent e) {
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("count", e.count());
    patch.put("lastTimestamp", timestamp(e.lastTimestamp()));
    patch.put("message", e.message());
    try {
      client
          .v1()
          .events()
          .inNamespace(e.object().eventNamespace())
          // named by an object, not by name: a patch of a name alone reads the Event first
          .resource(named(e))
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              client.getKubernetesSerialization().asJson(patch));
      return true;
    } catch (KubernetesClientException ex) {
      if (ex.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw ex;
    }
  }

  private static Event named(CorrelatedEvent e) {
    return new EventBuilder()
        .withNewMetadata()
        .withName(e.name())
        .withNamespace(e.object().eventNamespace())
        .endMetadata()
        .build();
  }

  private static String timestamp(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }
}
