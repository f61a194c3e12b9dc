package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A ConfigMap or Secret labelled reconcile.fluxcd.io/watch=Enabled (the default of
 * --watch-configs-label-selector) reconciles the Kustomizations that read it as soon as it changes,
 * also ending a health wait in progress; an unlabelled one waits for the interval.
 */
class ConfigWatchIT extends EngineTestBase {
  private static final Map<String, String> WATCHED = Map.of("reconcile.fluxcd.io/watch", "Enabled");
  private static final Duration PROMPT = Duration.ofSeconds(20);

  private static final String GREETING =
      """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: greeting}
      data: {value: "${GREETING}"}
      """;

  private static void vars(String name, Map<String, String> labels, String greeting) {
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .withData(Map.of("GREETING", greeting))
                .build())
        .createOr(c -> c.update());
  }

  private static Optional<String> value(String configMap, String namespace) {
    ConfigMap map = engine.client.configMaps().inNamespace(namespace).withName(configMap).get();
    return map == null ? Optional.empty() : Optional.ofNullable(map.getData().get("value"));
  }

  @Test
  void aChangeOfAWatchedConfigMapIsAppliedAtOnce() {
    git.commit(Map.of("watched/greeting.yaml", GREETING));
    vars("watched-vars", WATCHED, "hello");
    engine.gitRepository("repo", git.url());
    engine.kustomization(
        "watched",
        "repo",
        "./watched",
        "  postBuild: {substituteFrom: [{kind: ConfigMap, name: watched-vars}]}\n");
    engine.awaitCondition("watched", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    assertEquals(Optional.of("hello"), value("greeting", ns()));

    vars("watched-vars", WATCHED, "bye");
    EngineFixture.eventually(PROMPT)
        .until(() -> value("greeting", ns()).equals(Optional.of("bye")));
  }

  @Test
  void anUnlabelledConfigMapIsNotWatched() throws InterruptedException {
    git.commit(Map.of("quiet/greeting.yaml", GREETING.replace("greeting}", "quiet-greeting}")));
    vars("quiet-vars", Map.of(), "hello");
    engine.gitRepository("repo-quiet", git.url());
    engine.kustomization(
        "quiet",
        "repo-quiet",
        "./quiet",
        "  postBuild: {substituteFrom: [{kind: ConfigMap, name: quiet-vars}]}\n");
    engine.awaitCondition("quiet", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    assertEquals(Optional.of("hello"), value("quiet-greeting", ns()));

    vars("quiet-vars", Map.of(), "bye");
    Thread.sleep(5_000);
    assertEquals(Optional.of("hello"), value("quiet-greeting", ns()), "seen at the interval only");
  }

  @Test
  void aChangedWatchedSecretEndsAHealthWaitAndIsApplied() {
    git.commit(
        Map.of(
            "waiting/greeting.yaml",
            GREETING.replace("greeting}", "waiting-greeting}"),
            "waiting/stuck.yaml",
            Manifests.deployment(
                "stuck", "      nodeSelector: {capstan.dev/no-such-node: \"true\"}", 600)));
    engine
        .client
        .secrets()
        .inNamespace(ns())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("secret-vars")
                .withLabels(WATCHED)
                .endMetadata()
                .withStringData(Map.of("GREETING", "hello"))
                .build())
        .create();
    engine.gitRepository("repo-waiting", git.url());
    engine.kustomization(
        "waiting",
        "repo-waiting",
        "./waiting",
        "  wait: true\n  timeout: 5m\n"
            + "  postBuild: {substituteFrom: [{kind: Secret, name: secret-vars}]}\n");
    engine.awaitCondition(
        "waiting",
        "Ready",
        Duration.ofSeconds(90),
        c -> "Unknown".equals(c.getStatus()) && c.getMessage().contains("waiting for:"));

    try (ReadySeen ready = new ReadySeen(engine, "waiting")) {
      engine
          .client
          .secrets()
          .inNamespace(ns())
          .withName("secret-vars")
          .edit(s -> new SecretBuilder(s).withStringData(Map.of("GREETING", "bye")).build());
      EngineFixture.eventually(PROMPT)
          .until(() -> value("waiting-greeting", ns()).equals(Optional.of("bye")));
      assertEquals(
          "New reconciliation triggered by Secret/" + ns() + "/secret-vars: changed",
          EngineFixture.eventually(Duration.ofSeconds(10))
              .until(() -> ready.first("HealthCheckCanceled"), Optional::isPresent)
              .orElseThrow()
              .message());
    }
  }
}
