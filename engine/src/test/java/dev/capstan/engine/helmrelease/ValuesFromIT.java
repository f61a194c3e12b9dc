package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.api.helm.ValuesReference;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A HelmRelease's valuesFrom read from the real API server: a ConfigMap's data and a Secret's
 * (stringData over data, as the API server stores it) composed in order; a missing Secret named by
 * namespace, name and key.
 */
@ExtendWith(KubernetesCluster.class)
class ValuesFromIT {

  @Test
  void aConfigMapAndASecretAreComposedInOrder(KubernetesClient admin, TestNamespace ns)
      throws Exception {
    admin
        .configMaps()
        .inNamespace(ns.name())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("base")
                .endMetadata()
                .withData(Map.of("values.yaml", "replicaCount: 1\nimage: {tag: 6.0.0}\n"))
                .build())
        .create();
    admin
        .secrets()
        .inNamespace(ns.name())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("db")
                .endMetadata()
                .withStringData(Map.of("password", "hunter2", "values.yaml", "replicaCount: 2\n"))
                .build())
        .create();

    Map<String, Object> values =
        ValuesComposition.of(admin)
            .compose(
                ns.name(),
                List.of(
                    new ValuesReference(
                        ValuesReference.Kind.ConfigMap, "base", null, null, null, null),
                    new ValuesReference(ValuesReference.Kind.Secret, "db", null, null, null, null),
                    new ValuesReference(
                        ValuesReference.Kind.Secret, "db", "password", "db.password", null, null)),
                null);

    assertEquals(
        Map.of(
            "replicaCount", 2L,
            "image", Map.of("tag", "6.0.0"),
            "db", Map.of("password", "hunter2")),
        values);
  }

  @Test
  void aMissingSecretIsNamedByItsNamespaceNameAndKey(KubernetesClient admin, TestNamespace ns) {
    ValuesFailure failure =
        assertThrows(
            ValuesFailure.class,
            () ->
                ValuesComposition.of(admin)
                    .compose(
                        ns.name(),
                        List.of(
                            new ValuesReference(
                                ValuesReference.Kind.Secret,
                                "absent",
                                "prod.yaml",
                                null,
                                null,
                                null)),
                        null));

    assertEquals(
        "could not resolve Secret chart values reference '"
            + ns.name()
            + "/absent' with key 'prod.yaml': resource not found",
        failure.getMessage());
    assertFalse(failure.getMessage().contains("hunter2"));
  }
}
