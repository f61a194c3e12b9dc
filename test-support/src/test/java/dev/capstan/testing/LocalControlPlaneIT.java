package dev.capstan.testing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The local control plane behaves like a real cluster: rollouts complete, SSA conflicts are real,
 * and its Service range is of a usual cluster's size.
 */
@ExtendWith(KubernetesCluster.class)
class LocalControlPlaneIT {

  @Test
  void deploymentOfTwoReplicasBecomesAvailable(KubernetesClient client, TestNamespace ns) {
    Deployment deployment =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("web")
            .withNamespace(ns.name())
            .endMetadata()
            .withNewSpec()
            .withReplicas(2)
            .withNewSelector()
            .addToMatchLabels("app", "web")
            .endSelector()
            .withNewTemplate()
            .withNewMetadata()
            .addToLabels("app", "web")
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("web")
            .withImage("nginx:1.27")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    client.apps().deployments().resource(deployment).create();

    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () -> {
              Deployment live =
                  client.apps().deployments().inNamespace(ns.name()).withName("web").get();
              assertEquals(
                  2, live.getStatus() == null ? null : live.getStatus().getAvailableReplicas());
            });
  }

  @Test
  void serverSideApplyReportsAConflictBetweenFieldManagers(
      KubernetesClient client, TestNamespace ns) {
    ConfigMap first = configMap(ns, "owner-one");
    client.configMaps().resource(first).fieldManager("manager-one").serverSideApply();

    ConfigMap second = configMap(ns, "owner-two");
    KubernetesClientException conflict =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client.configMaps().resource(second).fieldManager("manager-two").serverSideApply());

    assertEquals(409, conflict.getCode());
    assertTrue(conflict.getMessage().contains("manager-one"), conflict.getMessage());
    assertEquals(
        "owner-one",
        client.configMaps().inNamespace(ns.name()).withName("shared").get().getData().get("owner"));
  }

  @Test
  void holdsMoreServicesThanASlash24ServiceRangeCould(KubernetesClient client, TestNamespace ns) {
    int count = 300;
    for (int i = 0; i < count; i++) {
      Service service =
          new ServiceBuilder()
              .withNewMetadata()
              .withName("svc-" + i)
              .withNamespace(ns.name())
              .endMetadata()
              .withNewSpec()
              .addNewPort()
              .withPort(80)
              .endPort()
              .endSpec()
              .build();
      client.services().resource(service).create();
    }

    long withAddress =
        client.services().inNamespace(ns.name()).list().getItems().stream()
            .filter(
                s -> s.getSpec().getClusterIP() != null && !s.getSpec().getClusterIP().isEmpty())
            .count();
    assertEquals(count, withAddress);
  }

  private static ConfigMap configMap(TestNamespace ns, String owner) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("shared")
        .withNamespace(ns.name())
        .endMetadata()
        .withData(Map.of("owner", owner))
        .build();
  }
}
