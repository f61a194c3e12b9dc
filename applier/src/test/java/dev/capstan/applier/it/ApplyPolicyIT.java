package dev.capstan.applier.it;

import static dev.capstan.applier.it.ItSupport.objects;
import static dev.capstan.applier.it.ItSupport.resultFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.apply.ApplyPolicy;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.common.Polling;
import dev.capstan.kube.GroupKind;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The engine's apply policy on a real API server: kinds of --custom-apply-stage-kinds are written
 * in a stage of their own before every other object but CRDs and Namespaces, and the fields of an
 * --override-manager are taken over, so that what Capstan does not apply is removed.
 */
@ExtendWith(KubernetesCluster.class)
class ApplyPolicyIT {
  private static final ExecutorService POOL = Executors.newFixedThreadPool(8);
  private static final Owner OWNER = new Owner("apps", "flux-system");

  private final KubernetesClient admin;
  private final String ns;

  ApplyPolicyIT(KubernetesClient admin, TestNamespace namespace) {
    this.admin = admin;
    this.ns = namespace.name();
  }

  @AfterAll
  static void stopPool() {
    POOL.shutdownNow();
  }

  private ApplyResult apply(
      KubernetesClient client, List<GenericKubernetesResource> objects, ApplyPolicy policy) {
    return ResourceManager.recent(client, POOL, Polling.system())
        .apply(ApplyRequest.of(objects, OWNER).withDefaultNamespace(ns).withPolicy(policy));
  }

  @Test
  void customStageKindsAreWrittenBeforeTheClusterScopedAndNamespacedObjects() {
    String suffix = ItSupport.suffix();
    List<GenericKubernetesResource> objects =
        objects(
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: settings}
            data: {a: "1"}
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: ClusterRole
            metadata: {name: capstan-policy-it-%1$s}
            rules: []
            ---
            apiVersion: rbac.authorization.k8s.io/v1
            kind: Role
            metadata: {name: reader}
            rules: []
            """
                .formatted(suffix));
    RequestLog log = new RequestLog();
    try (KubernetesClient logged = log.client(admin)) {
      ApplyResult result =
          apply(
              logged,
              objects,
              new ApplyPolicy(
                  Set.of(new GroupKind("rbac.authorization.k8s.io", "Role")), List.of()));
      assertTrue(result.succeeded(), result.objects().toString());
    } finally {
      admin.rbac().clusterRoles().withName("capstan-policy-it-" + suffix).delete();
    }
    List<String> writes =
        log.writes().stream().filter(w -> w.startsWith("PATCH") && !w.contains("dryRun")).toList();
    int role = index(writes, "/roles/reader");
    assertTrue(role >= 0, writes.toString());
    assertTrue(role < index(writes, "/clusterroles/"), writes.toString());
    assertTrue(role < index(writes, "/configmaps/settings"), writes.toString());
  }

  private static int index(List<String> writes, String path) {
    for (int i = 0; i < writes.size(); i++) {
      if (writes.get(i).contains(path)) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void fieldsOfAnOverriddenManagerAreTakenOverAndWhatCapstanDoesNotApplyIsRemoved() {
    List<GenericKubernetesResource> settings =
        objects(
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: shared}
            data: {a: "1"}
            """);
    apply(admin, settings, ApplyPolicy.DEFAULT);
    admin
        .configMaps()
        .inNamespace(ns)
        .withName("shared")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.JSON_MERGE)
                .withFieldManager("kubectl-edit")
                .build(),
            "{\"metadata\":{\"labels\":{\"extra\":\"x\"}},\"data\":{\"b\":\"2\"}}");

    ApplyResult untouched = apply(admin, settings, ApplyPolicy.DEFAULT);
    assertEquals(Action.UNCHANGED, resultFor(untouched, "ConfigMap/" + ns + "/shared").action());
    assertEquals("2", live().getData().get("b"), "without the policy their fields stay");

    ApplyPolicy overrideKubectl = new ApplyPolicy(Set.of(), List.of("kubectl"));
    ApplyResult takenOver = apply(admin, settings, overrideKubectl);

    assertEquals(Action.CONFIGURED, resultFor(takenOver, "ConfigMap/" + ns + "/shared").action());
    ConfigMap live = live();
    assertNull(live.getData().get("b"));
    assertEquals("1", live.getData().get("a"));
    assertTrue(
        live.getMetadata().getLabels() == null
            || !live.getMetadata().getLabels().containsKey("extra"),
        live.getMetadata().toString());
    assertTrue(
        live.getMetadata().getManagedFields().stream()
            .noneMatch(m -> m.getManager().startsWith("kubectl")),
        live.getMetadata().getManagedFields().toString());
    assertEquals(
        Action.UNCHANGED,
        resultFor(apply(admin, settings, overrideKubectl), "ConfigMap/" + ns + "/shared").action());
  }

  private ConfigMap live() {
    return admin.configMaps().inNamespace(ns).withName("shared").get();
  }
}
