package dev.capstan.cli.bootstrap;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.cli.apply.ResultPrinter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Asks the GitRepository to fetch at once, then waits until the Kustomization is Ready with the
 * pushed commit applied, or says what its Ready condition says when time runs out.
 */
final class SyncWait {

  private static final Duration INTERVAL = Duration.ofSeconds(1);

  private final KubernetesClient client;
  private final ResultPrinter printer;
  private final Clock clock;

  SyncWait(KubernetesClient client, ResultPrinter printer, Clock clock) {
    this.client = client;
    this.printer = printer;
    this.clock = clock;
  }

  /** True once Kustomization {@code name} has applied {@code commit} and is Ready. */
  boolean await(String namespace, String name, String commit, Duration timeout) {
    client
        .genericKubernetesResources("source.capstan.dev/v1", "GitRepository")
        .inNamespace(namespace)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            client.getKubernetesSerialization().asJson(ReconcileRequest.at(clock).mergePatch()));
    printer.line("waiting for Kustomization " + namespace + "/" + name + " to apply " + commit);
    Resource<GenericKubernetesResource> kustomization =
        client
            .genericKubernetesResources("kustomize.capstan.dev/v1", "Kustomization")
            .inNamespace(namespace)
            .withName(name);
    Instant deadline = clock.instant().plus(timeout);
    String last = "no status yet";
    while (clock.instant().isBefore(deadline)) {
      GenericKubernetesResource live = kustomization.get();
      Map<?, ?> status =
          live == null ? null : (Map<?, ?>) live.getAdditionalProperties().get("status");
      if (status != null) {
        Map<?, ?> ready = readyCondition(status);
        String applied = String.valueOf(status.get("lastAppliedRevision"));
        if (ready != null) {
          last = ready.get("reason") + ": " + ready.get("message");
          if ("True".equals(ready.get("status")) && applied.endsWith(commit)) {
            printer.line("Kustomization " + namespace + "/" + name + " is Ready at " + applied);
            return true;
          }
        }
      }
      if (!sleep()) {
        break;
      }
    }
    printer.line(
        "Kustomization " + namespace + "/" + name + " not Ready after " + timeout + ": " + last);
    return false;
  }

  private static Map<?, ?> readyCondition(Map<?, ?> status) {
    if (!(status.get("conditions") instanceof List<?> conditions)) {
      return null;
    }
    for (Object condition : conditions) {
      if (condition instanceof Map<?, ?> map && "Ready".equals(map.get("type"))) {
        return map;
      }
    }
    return null;
  }

  private static boolean sleep() {
    try {
      Thread.sleep(INTERVAL.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
