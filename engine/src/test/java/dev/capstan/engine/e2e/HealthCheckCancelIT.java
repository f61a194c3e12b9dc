package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A health wait of five minutes in progress ends as soon as new input arrives, with Ready False and
 * reason HealthCheckCanceled naming what came, and the new input is applied at once: a new
 * revision, a spec change, a reconcile request.
 */
class HealthCheckCancelIT extends EngineTestBase {
  private static final Duration PROMPT = Duration.ofSeconds(20);

  /** A revision whose Deployment cannot be scheduled: the wait of five minutes goes on. */
  private static Map<String, String> stuck(String path, String version) {
    return Map.of(
        path + "/version.yaml",
        Manifests.configMap("version", version),
        path + "/stuck.yaml",
        Manifests.deployment(
            "stuck", "      nodeSelector: {capstan.dev/no-such-node: \"true\"}", 600));
  }

  private static void awaitWaiting(String name) {
    engine.awaitCondition(
        name,
        "Ready",
        Duration.ofSeconds(90),
        c -> "Unknown".equals(c.getStatus()) && c.getMessage().contains("waiting for:"));
  }

  private static Optional<String> value(String configMap) {
    ConfigMap map = engine.client.configMaps().inNamespace(ns()).withName(configMap).get();
    return map == null ? Optional.empty() : Optional.ofNullable(map.getData().get("value"));
  }

  private static String artifactRevision(String repo) {
    GitRepository r = engine.gitRepository(repo);
    return r.getStatus() == null || r.getStatus().artifact() == null
        ? ""
        : r.getStatus().artifact().revision();
  }

  @Test
  void aNewRevisionEndsTheWaitAndIsAppliedAtOnce() {
    git.commit(stuck("rev", "1"));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./rev", "  wait: true\n  timeout: 5m\n");
    awaitWaiting("app");

    try (ReadySeen ready = new ReadySeen(engine, "app")) {
      String next = git.commit(stuck("rev", "2"));
      engine.requestReconcile(GitRepository.class, "repo");
      EngineFixture.eventually(Duration.ofSeconds(60))
          .until(() -> next.equals(artifactRevision("repo")));
      Instant arrived = Instant.now();
      EngineFixture.eventually(PROMPT).until(() -> value("version").equals(Optional.of("2")));
      Duration took = Duration.between(arrived, Instant.now());

      ReadySeen.Seen canceled =
          EngineFixture.eventually(Duration.ofSeconds(10))
              .until(() -> ready.first("HealthCheckCanceled"), Optional::isPresent)
              .orElseThrow();
      assertEquals("False", canceled.status());
      assertEquals(
          "New reconciliation triggered by GitRepository/" + ns() + "/repo: new revision " + next,
          canceled.message());
      assertTrue(took.compareTo(PROMPT) < 0, "applied " + took + " after the revision arrived");
      assertEquals(next, engine.kustomization("app").getStatus().lastAttemptedRevision());
    }
  }

  @Test
  void aSpecChangeOrAReconcileRequestEndsTheWaitToo() {
    git.commit(stuck("spec", "1"));
    engine.gitRepository("repo-spec", git.url());
    engine.kustomization("spec", "repo-spec", "./spec", "  wait: true\n  timeout: 5m\n");
    awaitWaiting("spec");

    try (ReadySeen ready = new ReadySeen(engine, "spec")) {
      engine
          .client
          .resources(Kustomization.class)
          .inNamespace(ns())
          .withName("spec")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"commonMetadata\":{\"labels\":{\"tier\":\"gold\"}}}}");
      EngineFixture.eventually(PROMPT)
          .until(
              () ->
                  "gold"
                      .equals(
                          engine
                              .client
                              .configMaps()
                              .inNamespace(ns())
                              .withName("version")
                              .get()
                              .getMetadata()
                              .getLabels()
                              .get("tier")));
      assertTrue(
          EngineFixture.eventually(Duration.ofSeconds(10))
              .until(() -> ready.first("HealthCheckCanceled"), Optional::isPresent)
              .orElseThrow()
              .message()
              .endsWith("Kustomization/" + ns() + "/spec: new generation 2"));
      awaitWaiting("spec");

      engine.requestReconcile(Kustomization.class, "spec");
      EngineFixture.eventually(PROMPT)
          .until(
              () ->
                  ready.all().stream()
                      .anyMatch(s -> s.message().endsWith("spec: reconcile requested")));
    }
  }
}
