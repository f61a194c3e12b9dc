package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.source.GitRepository;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A suspended Kustomization ignores new revisions and reconcile requests until resumed. */
class SuspendResumeIT extends EngineTestBase {

  @Test
  void suspendThenResume() {
    String first = git.commit(Map.of("app/cm.yaml", Manifests.configMap("cm", "one")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", "");
    engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);

    setSuspend(true);
    String second = git.commit(Map.of("app/cm.yaml", Manifests.configMap("cm", "two")));
    engine.requestReconcile(GitRepository.class, "repo");
    EngineFixture.eventually(Duration.ofSeconds(30)).until(() -> second.equals(revision()));
    engine.requestReconcile(Kustomization.class, "app");
    EngineFixture.eventually(Duration.ofSeconds(10))
        .during(Duration.ofSeconds(4))
        .until(() -> first.equals(engine.kustomization("app").getStatus().lastAppliedRevision()));
    assertEquals("one", value());

    setSuspend(false);
    engine.awaitCondition(
        "app",
        "Ready",
        Duration.ofSeconds(60),
        c -> ("Applied revision: " + second).equals(c.getMessage()));
    assertEquals("two", value());
  }

  private static void setSuspend(boolean suspend) {
    engine
        .client
        .resources(Kustomization.class)
        .inNamespace(ns())
        .withName("app")
        .edit(
            k -> {
              var s = k.getSpec();
              k.setSpec(
                  new KustomizationSpec(
                      s.sourceRef(),
                      s.path(),
                      s.interval(),
                      s.retryInterval(),
                      s.timeout(),
                      s.prune(),
                      s.waitForAll(),
                      s.force(),
                      suspend,
                      s.healthChecks(),
                      s.healthCheckExprs(),
                      s.dependsOn(),
                      s.targetNamespace(),
                      s.namePrefix(),
                      s.nameSuffix(),
                      s.commonMetadata(),
                      s.patches(),
                      s.images(),
                      s.components(),
                      s.ignoreMissingComponents(),
                      s.buildMetadata(),
                      s.postBuild(),
                      s.decryption(),
                      s.serviceAccountName(),
                      s.deletionPolicy(),
                      s.kubeConfig(),
                      s.ignore(),
                      s.driftDetection()));
              return k;
            });
  }

  private static String revision() {
    var repo =
        engine.client.resources(GitRepository.class).inNamespace(ns()).withName("repo").get();
    return repo.getStatus() == null || repo.getStatus().artifact() == null
        ? null
        : repo.getStatus().artifact().revision();
  }

  private static String value() {
    return engine.client.configMaps().inNamespace(ns()).withName("cm").get().getData().get("value");
  }
}
