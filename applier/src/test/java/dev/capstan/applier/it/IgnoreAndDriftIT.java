package dev.capstan.applier.it;

import static dev.capstan.applier.it.ItSupport.objects;
import static dev.capstan.applier.it.ItSupport.resultFor;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.apply.DriftPolicy;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.common.Polling;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.applier.kustomize.PatchSelector;
import dev.capstan.kube.ObjectRef;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Ignore rules and drift modes against a real API server: what its managedFields say after a scale
 * through the subresource, an update by another writer and an apply by another manager.
 */
@ExtendWith(KubernetesCluster.class)
class IgnoreAndDriftIT {
  private static final ExecutorService POOL = Executors.newFixedThreadPool(4);
  private static final Owner OWNER = new Owner("apps", "flux-system");
  private static final IgnoreRules REPLICAS_OF_DEPLOYMENTS =
      IgnoreRules.compile(
          List.of(
              new IgnoreRules.Rule(
                  List.of("/spec/replicas"),
                  new PatchSelector(null, null, "Deployment", null, null, null, null))),
          "spec.ignore");

  private final KubernetesClient admin;
  private final String ns;

  IgnoreAndDriftIT(KubernetesClient admin, TestNamespace namespace) {
    this.admin = admin;
    this.ns = namespace.name();
  }

  @AfterAll
  static void stopPool() {
    POOL.shutdownNow();
  }

  @Test
  void aScaleIsNeitherAChangeNorRevertedAndAnotherApplyManagersValueIsLeftToIt() {
    assertTrue(apply(deployment("nginx:1", "a"), REPLICAS_OF_DEPLOYMENTS).succeeded());
    admin.apps().deployments().inNamespace(ns).withName("web").scale(5);

    ApplyResult unchanged = apply(deployment("nginx:1", "a"), REPLICAS_OF_DEPLOYMENTS);
    assertEquals(Action.UNCHANGED, web(unchanged).action(), "a scale alone is no change");
    assertEquals(5, replicas());

    ApplyResult newImage = apply(deployment("nginx:2", "a"), REPLICAS_OF_DEPLOYMENTS);
    assertEquals(Action.CONFIGURED, web(newImage).action());
    assertEquals(5, replicas(), "adopted: the scaled value is kept");
    assertEquals("nginx:2", image());
    assertEquals(
        Action.UNCHANGED, web(apply(deployment("nginx:2", "a"), REPLICAS_OF_DEPLOYMENTS)).action());

    admin
        .apps()
        .deployments()
        .inNamespace(ns)
        .withName("web")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager("autoscaler")
                .withForce(true)
                .build(),
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"spec\":{\"replicas\":4}}");
    ApplyResult newLabel = apply(deployment("nginx:2", "b"), REPLICAS_OF_DEPLOYMENTS);
    assertEquals(Action.CONFIGURED, web(newLabel).action());
    assertEquals(4, replicas());
    Deployment live = admin.apps().deployments().inNamespace(ns).withName("web").get();
    assertFalse(
        live.getMetadata().getManagedFields().stream()
            .filter(e -> "capstan".equals(e.getManager()))
            .anyMatch(e -> e.getFieldsV1().toString().contains("f:replicas")),
        "stripped: the field is left to the other Apply manager");
  }

  @Test
  void withoutTheRuleTheScaleIsReverted() {
    apply(deployment("nginx:1", "a"), IgnoreRules.NONE);
    admin.apps().deployments().inNamespace(ns).withName("web").scale(5);
    assertEquals(
        Action.CONFIGURED, web(apply(deployment("nginx:1", "a"), IgnoreRules.NONE)).action());
    assertEquals(2, replicas());
  }

  @Test
  void driftReportedIsNamedAndNotWrittenAndDriftIgnoredIsNotLookedAt() {
    String settings = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n";
    String manifest = settings + "data: {mode: git, level: '1'}\n";
    apply(objects(manifest), IgnoreRules.NONE);
    admin
        .configMaps()
        .inNamespace(ns)
        .withName("settings")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.JSON_MERGE)
                .withFieldManager("kubectl-edit")
                .build(),
            "{\"data\":{\"mode\":\"by-hand\"}}");
    String version = configMap().getMetadata().getResourceVersion();

    ObjectResult reported = settings(applyWith(manifest, DriftPolicy.Mode.REPORT));
    assertEquals(Action.DRIFTED, reported.action());
    assertEquals(List.of("/data/mode"), reported.fields());
    assertEquals("changed in the cluster: /data/mode", reported.reason());
    assertEquals(version, configMap().getMetadata().getResourceVersion(), "nothing written");
    assertEquals(Action.UNCHANGED, settings(applyWith(manifest, DriftPolicy.Mode.IGNORE)).action());
    assertEquals("by-hand", configMap().getData().get("mode"));

    admin.configMaps().inNamespace(ns).withName("settings").delete();
    await().atMost(Duration.ofSeconds(30)).until(() -> configMap() == null);
    ObjectResult deleted = settings(applyWith(manifest, DriftPolicy.Mode.REPORT));
    assertEquals(Action.DRIFTED, deleted.action());
    assertEquals("deleted from the cluster", deleted.reason());
    assertEquals(Action.SKIPPED, settings(applyWith(manifest, DriftPolicy.Mode.IGNORE)).action());
    assertNull(configMap(), "not created again");
    assertEquals(Action.CREATED, settings(applyWith(manifest, DriftPolicy.Mode.CORRECT)).action());
  }

  private ApplyResult applyWith(String manifest, DriftPolicy.Mode mode) {
    ObjectRef ref = new ObjectRef("", "v1", "ConfigMap", ns, "settings");
    return ResourceManager.recent(admin, POOL, Polling.system())
        .apply(request(objects(manifest)).withDrift(DriftPolicy.of(mode, List.of(ref))));
  }

  private ObjectResult settings(ApplyResult result) {
    return resultFor(result, "ConfigMap/" + ns + "/settings");
  }

  private ConfigMap configMap() {
    return admin.configMaps().inNamespace(ns).withName("settings").get();
  }

  private ApplyResult apply(List<GenericKubernetesResource> objects, IgnoreRules rules) {
    return ResourceManager.recent(admin, POOL, Polling.system())
        .apply(request(objects).withIgnore(rules));
  }

  private ApplyRequest request(List<GenericKubernetesResource> objects) {
    return ApplyRequest.of(objects, OWNER)
        .withDefaultNamespace(ns)
        .withTimeout(Duration.ofSeconds(60));
  }

  private ObjectResult web(ApplyResult result) {
    return resultFor(result, "Deployment/" + ns + "/web");
  }

  private int replicas() {
    return admin.apps().deployments().inNamespace(ns).withName("web").get().getSpec().getReplicas();
  }

  private String image() {
    return admin
        .apps()
        .deployments()
        .inNamespace(ns)
        .withName("web")
        .get()
        .getSpec()
        .getTemplate()
        .getSpec()
        .getContainers()
        .get(0)
        .getImage();
  }

  private static List<GenericKubernetesResource> deployment(String image, String label) {
    return objects(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, labels: {release: %s}}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: app, image: "%s"}]
        """
            .formatted(label, image));
  }
}
