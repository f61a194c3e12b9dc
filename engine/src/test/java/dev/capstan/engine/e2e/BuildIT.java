package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The build stage as a Flux user sees it: the Kustomization's build fields, postBuild variables
 * from ConfigMaps and Secrets, and kustomize's own errors as BuildFailed.
 */
class BuildIT extends EngineTestBase {
  private static final String KUSTOMIZATION =
      """
      resources: [settings.yaml]
      configMapGenerator:
      - name: generated
        literals: [color=blue]
      """;
  private static final String SETTINGS =
      """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: settings}
      data:
        region: ${REGION}
        tier: ${TIER:=standard}
        token: ${TOKEN}
      """;

  @Test
  void aKustomizationsFieldsAndVariablesReachTheCluster() {
    git.commit(
        Map.of(
            "app/kustomization.yaml", KUSTOMIZATION,
            "app/settings.yaml", SETTINGS,
            "components/extra/kustomization.yaml",
                """
                apiVersion: kustomize.config.k8s.io/v1alpha1
                kind: Component
                configMapGenerator:
                - {name: generated, behavior: merge, literals: [size=large]}
                """));
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("vars")
                .endMetadata()
                .withData(Map.of("REGION", "eu-west"))
                .build())
        .create();
    engine
        .client
        .secrets()
        .inNamespace(ns())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("secret-vars")
                .endMetadata()
                .withStringData(Map.of("TOKEN", "s3cr3t-value"))
                .build())
        .create();
    engine.gitRepository("repo", git.url());
    engine.kustomization(
        "app",
        "repo",
        "./app",
        """
          namePrefix: shop-
          commonMetadata: {labels: {team: payments}}
          components: [../components/extra, ../components/missing]
          ignoreMissingComponents: true
          postBuild:
            substituteFrom:
            - {kind: ConfigMap, name: vars}
            - {kind: Secret, name: secret-vars}
            - {kind: ConfigMap, name: not-there, optional: true}
        """);

    engine.awaitCondition("app", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    ConfigMap settings = configMap("shop-settings");
    assertEquals(
        Map.of("region", "eu-west", "tier", "standard", "token", "s3cr3t-value"),
        settings.getData());
    assertEquals("payments", settings.getMetadata().getLabels().get("team"));
    ConfigMap generated =
        engine.client.configMaps().inNamespace(ns()).list().getItems().stream()
            .filter(c -> c.getMetadata().getName().startsWith("shop-generated-"))
            .findFirst()
            .orElseThrow();
    assertEquals(Map.of("color", "blue", "size", "large"), generated.getData());
  }

  @Test
  void aMissingVariableSourceIsRetriedUntilItExists() {
    git.commit(
        Map.of(
            "wait/cm.yaml",
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: waiting}
            data: {color: "${COLOR}"}
            """));
    engine.gitRepository("repo-wait", git.url());
    engine.kustomization(
        "wait",
        "repo-wait",
        "./wait",
        """
          retryInterval: 2s
          postBuild:
            substituteFrom: [{kind: ConfigMap, name: late-vars}]
        """);
    var failed =
        engine.awaitCondition(
            "wait", "Ready", Duration.ofSeconds(60), c -> "BuildFailed".equals(c.getReason()));
    assertEquals(
        "substitute from 'ConfigMap/late-vars' error: not found in namespace '" + ns() + "'",
        failed.getMessage());

    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("late-vars")
                .endMetadata()
                .withData(Map.of("COLOR", "green"))
                .build())
        .create();
    engine.awaitCondition("wait", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    assertEquals("green", configMap("waiting").getData().get("color"));
  }

  @Test
  void kustomizesErrorIsTheReasonAndNoSecretIsEchoed() {
    git.commit(
        Map.of(
            "broken/kustomization.yaml", "resources: [secret.yaml, missing.yaml]\n",
            "broken/secret.yaml",
                """
                apiVersion: v1
                kind: Secret
                metadata: {name: creds}
                stringData: {password: hunter2-in-git}
                """));
    engine.gitRepository("repo-broken", git.url());
    engine.kustomization("broken", "repo-broken", "./broken", "");
    var failed =
        engine.awaitCondition(
            "broken", "Ready", Duration.ofSeconds(60), c -> "BuildFailed".equals(c.getReason()));
    assertTrue(failed.getMessage().contains("kustomize build failed: "), failed.getMessage());
    assertTrue(failed.getMessage().contains("broken/missing.yaml"), failed.getMessage());
    assertEquals("True", engine.condition("broken", "Stalled").orElseThrow().getStatus());
    for (Event event : engine.client.v1().events().inNamespace(ns()).list().getItems()) {
      assertFalse(String.valueOf(event.getMessage()).contains("hunter2"), event.getMessage());
    }
    assertFalse(failed.getMessage().contains("hunter2"), failed.getMessage());
    assertFalse(
        failed.getMessage().contains("Exception"), "no stack trace: " + failed.getMessage());
  }

  private static ConfigMap configMap(String name) {
    return engine.client.configMaps().inNamespace(ns()).withName(name).get();
  }
}
