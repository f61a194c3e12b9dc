package dev.capstan.applier.it;

import static dev.capstan.applier.it.ItSupport.actions;
import static dev.capstan.applier.it.ItSupport.objects;
import static dev.capstan.applier.it.ItSupport.resultFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.apply.DiscoveryCache;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.common.Polling;
import dev.capstan.kube.ObjectRef;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(KubernetesCluster.class)
class ApplyIT {

  private static final ExecutorService POOL = Executors.newFixedThreadPool(8);
  private static final Owner OWNER = new Owner("apps", "flux-system");

  private final KubernetesClient admin;
  private final String ns;

  ApplyIT(KubernetesClient admin, TestNamespace namespace) {
    this.admin = admin;
    this.ns = namespace.name();
  }

  @AfterAll
  static void stopPool() {
    POOL.shutdownNow();
  }

  private ApplyResult apply(
      KubernetesClient client, List<GenericKubernetesResource> objects, boolean force) {
    return ResourceManager.recent(client, POOL, Polling.system())
        .apply(request(objects).withForce(force));
  }

  private String app(String configValue, int replicas) {
    return """
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: settings}
    data: {mode: "%s"}
    ---
    apiVersion: v1
    kind: Secret
    metadata: {name: creds}
    stringData: {password: s3cr3t-value}
    ---
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web, labels: {tier: front}}
    spec:
      replicas: %d
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers: [{name: app, image: "nginx:1.27", ports: [{containerPort: 80}]}]
    ---
    apiVersion: v1
    kind: Service
    metadata: {name: web}
    spec:
      selector: {app: web}
      ports: [{port: 80, targetPort: 80}]
    """
        .formatted(configValue, replicas);
  }

  @Test
  void usesDiscoveryKeptOnDiskAndLooksUpAKindMissingFromItLive(@TempDir Path cacheDir)
      throws IOException {
    DiscoveryCache cache = new DiscoveryCache(cacheDir, DiscoveryCache.TTL, Clock.systemUTC());
    String configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kept}\ndata: {a: b}\n";
    RequestLog log = new RequestLog();
    try (KubernetesClient client = log.client(admin)) {
      assertTrue(
          new ResourceManager(client, POOL, Polling.system(), cache)
              .apply(request(objects(configMap)))
              .succeeded());
      Path core = keptAnswer(cacheDir, "v1.json");

      log.clear();
      assertTrue(
          new ResourceManager(client, POOL, Polling.system(), cache)
              .apply(request(objects(configMap)))
              .unchanged());
      assertTrue(
          log.all().stream().noneMatch(r -> r.equals("GET /api/v1")),
          "discovery of v1 came from disk: " + log.all());

      // an answer kept before Secrets were served: the kind is looked up again, not reported
      // unknown
      dropKind(core, "Secret");
      String withSecret =
          configMap
              + "---\napiVersion: v1\nkind: Secret\nmetadata: {name: late}\nstringData: {k: v}\n";
      log.clear();
      ApplyResult result =
          new ResourceManager(client, POOL, Polling.system(), cache)
              .apply(request(objects(withSecret)));
      assertEquals(
          Action.CREATED,
          resultFor(result, "Secret/" + ns + "/late").action(),
          result.objects().toString());
      assertTrue(log.all().contains("GET /api/v1"), log.all().toString());
      assertTrue(Files.readString(core).contains("\"Secret\""), "the kept answer was renewed");
    }
  }

  @Test
  void anApplierThatAppliesAgainAsksDiscoveryOfABuiltInGroupOnceAMinute() {
    String configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: again}\ndata: {a: b}\n";
    RequestLog log = new RequestLog();
    try (KubernetesClient client = log.client(admin)) {
      ResourceManager applier = ResourceManager.recent(client, POOL, Polling.system());
      assertTrue(applier.apply(request(objects(configMap))).succeeded());
      assertTrue(log.all().contains("GET /api/v1"), log.all().toString());

      log.clear();
      assertTrue(applier.apply(request(objects(configMap))).unchanged());
      assertTrue(
          log.all().stream().noneMatch(r -> r.equals("GET /api/v1")),
          "the second apply believed the first one's discovery: " + log.all());
    }
  }

  private ApplyRequest request(List<GenericKubernetesResource> objects) {
    return ApplyRequest.of(objects, OWNER)
        .withDefaultNamespace(ns)
        .withTimeout(Duration.ofSeconds(60));
  }

  private static Path keptAnswer(Path cacheDir, String name) throws IOException {
    try (var files = Files.walk(cacheDir)) {
      return files
          .filter(f -> f.getFileName().toString().equals(name))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no " + name + " under " + cacheDir));
    }
  }

  private static void dropKind(Path answer, String kind) throws IOException {
    APIResourceList list = Serialization.unmarshal(Files.readString(answer), APIResourceList.class);
    list.setResources(list.getResources().stream().filter(r -> !kind.equals(r.getKind())).toList());
    Files.writeString(answer, Serialization.asJson(list));
  }

  @Test
  void readsAKindInManyNamespacesWithOneListOrOnePerNamespaceWhereThatIsForbidden() {
    List<String> namespaces = List.of(ns, ns + "-b", ns + "-c");
    namespaces
        .subList(1, 3)
        .forEach(
            n ->
                admin
                    .namespaces()
                    .resource(
                        new NamespaceBuilder().withNewMetadata().withName(n).endMetadata().build())
                    .create());
    try {
      String spread =
          namespaces.stream()
              .map(
                  n ->
                      ("apiVersion: v1\nkind: ConfigMap\n"
                              + "metadata: {name: spread, namespace: %s}\ndata: {a: b}\n")
                          .formatted(n))
              .collect(Collectors.joining("---\n"));
      RequestLog log = new RequestLog();
      try (KubernetesClient client = log.client(admin)) {
        assertTrue(apply(client, objects(spread), false).succeeded());
        log.clear();
        assertTrue(apply(client, objects(spread), false).unchanged());
        assertEquals(
            1,
            log.all().stream().filter(r -> r.startsWith("GET /api/v1/configmaps?")).count(),
            log.all().toString());
        assertTrue(
            log.all().stream()
                .noneMatch(r -> r.matches("GET /api/v1/namespaces/[^/]+/configmaps.*")),
            log.all().toString());
      }

      // a tenant that may read ConfigMaps in these three namespaces only
      admin
          .serviceAccounts()
          .inNamespace(ns)
          .resource(
              new ServiceAccountBuilder()
                  .withNewMetadata()
                  .withName("tenant")
                  .endMetadata()
                  .build())
          .create();
      for (String n : namespaces) {
        admin
            .rbac()
            .roles()
            .inNamespace(n)
            .resource(
                new RoleBuilder()
                    .withNewMetadata()
                    .withName("read-config")
                    .endMetadata()
                    .addNewRule()
                    .withApiGroups("")
                    .withResources("configmaps")
                    .withVerbs("get", "list")
                    .endRule()
                    .build())
            .create();
        admin
            .rbac()
            .roleBindings()
            .inNamespace(n)
            .resource(
                new RoleBindingBuilder()
                    .withNewMetadata()
                    .withName("tenant")
                    .endMetadata()
                    .withNewRoleRef()
                    .withApiGroup("rbac.authorization.k8s.io")
                    .withKind("Role")
                    .withName("read-config")
                    .endRoleRef()
                    .addNewSubject()
                    .withKind("ServiceAccount")
                    .withName("tenant")
                    .withNamespace(ns)
                    .endSubject()
                    .build())
            .create();
      }
      RequestLog tenantLog = new RequestLog();
      Config asTenant =
          new ConfigBuilder(admin.getConfiguration())
              .withImpersonateUsername("system:serviceaccount:" + ns + ":tenant")
              .build();
      try (KubernetesClient tenant = new KubernetesClientBuilder().withConfig(asTenant).build();
          KubernetesClient logged = tenantLog.client(tenant)) {
        ApplyResult again = apply(logged, objects(spread), false);
        assertTrue(again.unchanged(), "found through one LIST per namespace: " + again.objects());
        assertTrue(
            tenantLog.all().stream().anyMatch(r -> r.startsWith("GET /api/v1/configmaps?")),
            tenantLog.all().toString());
        for (String n : namespaces) {
          assertTrue(
              tenantLog.all().stream()
                  .anyMatch(r -> r.startsWith("GET /api/v1/namespaces/" + n + "/configmaps?")),
              n + ": " + tenantLog.all());
        }
      }
    } finally {
      namespaces.subList(1, 3).forEach(n -> admin.namespaces().withName(n).delete());
    }
  }

  @Test
  void createsThenLeavesUnchangedObjectsWithoutAnyWriteThenConfigures() {
    RequestLog log = new RequestLog();
    try (KubernetesClient client = log.client(admin)) {
      ApplyResult first = apply(client, objects(app("a", 2)), false);
      assertTrue(first.succeeded(), first.objects().toString());
      assertEquals(
          Map.of(
              "ConfigMap/" + ns + "/settings", Action.CREATED,
              "Deployment/" + ns + "/web", Action.CREATED,
              "Secret/" + ns + "/creds", Action.CREATED,
              "Service/" + ns + "/web", Action.CREATED),
          actions(first));
      ConfigMap live = admin.configMaps().inNamespace(ns).withName("settings").get();
      assertEquals(
          OWNER.labels(),
          Map.of(
              Owner.NAME_LABEL, live.getMetadata().getLabels().get(Owner.NAME_LABEL),
              Owner.NAMESPACE_LABEL, live.getMetadata().getLabels().get(Owner.NAMESPACE_LABEL)));
      assertTrue(
          live.getMetadata()
              .getAnnotations()
              .get("capstan.dev/applied-digest")
              .startsWith("sha256:"));
      ObjectRef settings = resultFor(first, "ConfigMap/" + ns + "/settings").ref();
      assertEquals(4, first.answers().size(), "each write's answer is kept");
      assertEquals(
          live.getMetadata().getResourceVersion(),
          Serialization.unmarshal(first.answer(settings).orElseThrow(), ConfigMap.class)
              .getMetadata()
              .getResourceVersion(),
          "the answer is the object as the API server wrote it");

      log.clear();
      ApplyResult second = apply(client, objects(app("a", 2)), false);
      assertTrue(second.unchanged(), second.objects().toString());
      assertEquals(Map.of(), second.answers(), "nothing written, nothing answered");
      assertEquals(List.of(), log.writes(), "an unchanged revision sends no write and no dry-run");
      assertTrue(log.all().stream().noneMatch(r -> r.contains("dryRun")), log.all().toString());
      assertTrue(
          log.all().stream()
              .allMatch(
                  r ->
                      !r.contains("/" + ns + "/")
                          || !r.matches(".*/(configmaps|secrets|deployments|services)/[^/?]+.*")),
          "live state is read with one LIST per kind and namespace, not one GET per object: "
              + log.all());

      log.clear();
      ApplyResult third = apply(client, objects(app("b", 2)), false);
      assertEquals(Action.CONFIGURED, resultFor(third, "ConfigMap/" + ns + "/settings").action());
      assertEquals(Action.UNCHANGED, resultFor(third, "Deployment/" + ns + "/web").action());
      assertEquals(
          List.of(settings.withoutVersion()),
          List.copyOf(third.answers().keySet()),
          "only the written object's answer");
      assertEquals(
          "b", admin.configMaps().inNamespace(ns).withName("settings").get().getData().get("mode"));
      assertEquals(
          2,
          log.writes().size(),
          "one dry-run and one apply of the changed object: " + log.writes());
    }
  }

  @Test
  void aFirstApplyListsNothingAndWritesEveryObjectEvenOnesItLeftBehind() {
    List<GenericKubernetesResource> objects = objects(app("first", 1));
    RequestLog log = new RequestLog();
    try (KubernetesClient client = log.client(admin)) {
      ApplyResult created =
          ResourceManager.recent(client, POOL, Polling.system())
              .apply(request(objects).withFirstApply(true));
      assertTrue(created.succeeded(), created.objects().toString());
      assertEquals(4, created.answers().size(), "every object written: " + created.objects());
      assertTrue(
          log.all().stream().noneMatch(r -> r.startsWith("GET ") && r.contains("labelSelector")),
          "nothing listed: " + log.all());

      // Objects carrying the owner's labels, as a deleted owner of the same name leaves them.
      log.clear();
      ApplyResult again =
          ResourceManager.recent(client, POOL, Polling.system())
              .apply(request(objects).withFirstApply(true));
      assertTrue(again.succeeded(), again.objects().toString());
      assertEquals(
          8, log.writes().size(), "a dry-run and an apply of each object: " + log.writes());
      assertTrue(
          again.objects().stream().allMatch(r -> r.action() == Action.CONFIGURED),
          "reported as existing objects not looked for: " + again.objects());

      log.clear();
      ApplyResult looked = apply(client, objects, false);
      assertTrue(looked.unchanged(), "found by the owner's labels: " + looked.objects());
      assertEquals(List.of(), log.writes());
    }
  }

  @Test
  void readsOnlyItsOwnObjectsAndAdoptsOnesItDidNotCreate() {
    // Another owner's object and one made without Capstan share the namespace.
    ApplyRequest other =
        ApplyRequest.of(
                objects(
                    """
                    apiVersion: v1
                    kind: ConfigMap
                    metadata: {name: adoption-other-owner}
                    data: {owner: other}
                    """),
                new Owner("other", "flux-system"))
            .withDefaultNamespace(ns)
            .withTimeout(Duration.ofSeconds(60));
    assertTrue(ResourceManager.recent(admin, POOL, Polling.system()).apply(other).succeeded());
    admin
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("adoption-by-hand")
                .endMetadata()
                .addToData("mode", "by-hand")
                .build())
        .create();
    String mine =
        """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: adoption-by-hand}
        data: {mode: "adopted"}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: adoption-new}
        data: {mode: "new"}
        """;

    RequestLog log = new RequestLog();
    try (KubernetesClient client = log.client(admin)) {
      ApplyResult first = apply(client, objects(mine), false);
      assertTrue(first.succeeded(), first.objects().toString());
      assertEquals(
          Map.of(
              "ConfigMap/" + ns + "/adoption-by-hand",
              Action.CONFIGURED,
              "ConfigMap/" + ns + "/adoption-new",
              Action.CREATED),
          actions(first),
          "an existing object Capstan did not make is adopted, not created");
      List<String> lists =
          log.all().stream()
              .filter(r -> r.startsWith("GET ") && r.contains("/namespaces/" + ns + "/"))
              .map(r -> URLDecoder.decode(r, StandardCharsets.UTF_8))
              .toList();
      assertTrue(
          !lists.isEmpty()
              && lists.stream()
                  .allMatch(
                      r ->
                          r.contains("labelSelector=")
                              && r.contains(Owner.NAME_LABEL + "=apps")
                              && r.contains(Owner.NAMESPACE_LABEL + "=flux-system")),
          "live objects are listed by this owner's labels only: " + lists);
    }
    assertEquals(
        "other",
        admin
            .configMaps()
            .inNamespace(ns)
            .withName("adoption-other-owner")
            .get()
            .getData()
            .get("owner"));
    ApplyResult again = apply(admin, objects(mine), false);
    assertTrue(
        again.unchanged(), "once adopted, the object is found by its labels: " + again.objects());
  }

  @Test
  void driftByAnotherManagerIsRestored() {
    apply(admin, objects(app("drift", 3)), false);
    String patch = "{\"spec\":{\"replicas\":1},\"metadata\":{\"labels\":{\"tier\":null}}}";
    PatchContext edit =
        new PatchContext.Builder()
            .withPatchType(PatchType.JSON_MERGE)
            .withFieldManager("kubectl-edit")
            .build();
    admin.apps().deployments().inNamespace(ns).withName("web").patch(edit, patch);
    Deployment edited = admin.apps().deployments().inNamespace(ns).withName("web").get();
    assertEquals(1, edited.getSpec().getReplicas());

    ApplyResult result = apply(admin, objects(app("drift", 3)), false);
    assertEquals(Action.CONFIGURED, resultFor(result, "Deployment/" + ns + "/web").action());
    Deployment restored = admin.apps().deployments().inNamespace(ns).withName("web").get();
    assertEquals(3, restored.getSpec().getReplicas());
    assertEquals("front", restored.getMetadata().getLabels().get("tier"));
    assertEquals(
        Action.UNCHANGED,
        resultFor(apply(admin, objects(app("drift", 3)), false), "Deployment/" + ns + "/web")
            .action());
  }

  @Test
  void aSecretValueGivenAsStringDataAndChangedInTheClusterIsRestored() {
    String secret =
        "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: "
            + ns
            + "}\n"
            + "stringData: {password: from-git}\n";
    apply(admin, objects(secret), false);
    PatchContext edit =
        new PatchContext.Builder()
            .withPatchType(PatchType.JSON_MERGE)
            .withFieldManager("kubectl-edit")
            .build();
    admin
        .secrets()
        .inNamespace(ns)
        .withName("creds")
        .patch(edit, "{\"data\":{\"password\":\"" + base64("changed") + "\"}}");

    ApplyResult result = apply(admin, objects(secret), false);

    assertEquals(Action.CONFIGURED, resultFor(result, "Secret/" + ns + "/creds").action());
    assertEquals(
        base64("from-git"),
        admin.secrets().inNamespace(ns).withName("creds").get().getData().get("password"));
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void conflictWithAnotherFieldManagerIsTakenOver() {
    ConfigMap theirs =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("shared")
            .withNamespace(ns)
            .endMetadata()
            .addToData("owner", "them")
            .build();
    admin
        .configMaps()
        .inNamespace(ns)
        .resource(theirs)
        .fieldManager("other-tool")
        .serverSideApply();

    ApplyResult result =
        apply(
            admin,
            objects(
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: shared}
                data: {owner: capstan}
                """),
            false);
    assertEquals(Action.CONFIGURED, resultFor(result, "ConfigMap/" + ns + "/shared").action());
    ConfigMap live = admin.configMaps().inNamespace(ns).withName("shared").get();
    assertEquals("capstan", live.getData().get("owner"));
    ManagedFieldsEntry ours =
        live.getMetadata().getManagedFields().stream()
            .filter(m -> m.getManager().equals("capstan"))
            .findFirst()
            .orElseThrow();
    assertTrue(
        ours.getFieldsV1().getAdditionalProperties().toString().contains("f:owner"),
        ours.toString());
    assertTrue(
        live.getMetadata().getManagedFields().stream()
            .filter(m -> m.getManager().equals("other-tool"))
            .noneMatch(
                m -> m.getFieldsV1().getAdditionalProperties().toString().contains("f:owner")));
  }

  @Test
  void dryRunRejectionLeavesEverythingUntouched() {
    apply(
        admin,
        objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: stable}\ndata: {v: '1'}\n"),
        false);
    ApplyResult result =
        apply(
            admin,
            objects(
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: stable}
                data: {v: '2'}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: brand-new}
                data: {v: '1'}
                ---
                apiVersion: v1
                kind: Service
                metadata: {name: broken}
                spec:
                  ports: [{port: 99999}]
                """),
            false);
    assertEquals(Action.FAILED, resultFor(result, "Service/" + ns + "/broken").action());
    assertTrue(
        resultFor(result, "Service/" + ns + "/broken").reason().contains("99999"),
        result.toString());
    assertEquals(Action.SKIPPED, resultFor(result, "ConfigMap/" + ns + "/stable").action());
    assertEquals(Action.SKIPPED, resultFor(result, "ConfigMap/" + ns + "/brand-new").action());
    assertEquals(
        "1", admin.configMaps().inNamespace(ns).withName("stable").get().getData().get("v"));
    assertNull(admin.configMaps().inNamespace(ns).withName("brand-new").get());
  }

  @Test
  void unknownKindIsReportedAndNothingIsWritten() {
    ApplyResult result =
        apply(
            admin,
            objects(
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: never-written}
                ---
                apiVersion: example.invalid/v1
                kind: Gizmo
                metadata: {name: g}
                """),
            false);
    assertEquals(Action.FAILED, resultFor(result, "Gizmo/g").action());
    assertTrue(
        resultFor(result, "Gizmo/g")
            .reason()
            .startsWith("unknown kind Gizmo in example.invalid/v1"));
    assertNull(admin.configMaps().inNamespace(ns).withName("never-written").get());
  }

  @Test
  void immutableFieldChangeFailsWithoutForceAndRecreatesWithForce() {
    String v1 =
        "apiVersion: v1\n"
            + "kind: ConfigMap\n"
            + "metadata: {name: frozen}\n"
            + "immutable: true\n"
            + "data: {v: '1'}\n"
            + "---\n"
            + "apiVersion: v1\n"
            + "kind: ConfigMap\n"
            + "metadata: {name: neighbour}\n"
            + "data: {v: '1'}\n";
    String v2 =
        v1.replace("data: {v: '1'}\n---", "data: {v: '2'}\n---")
            .replace("neighbour}\ndata: {v: '1'}", "neighbour}\ndata: {v: '2'}");
    assertTrue(apply(admin, objects(v1), false).succeeded());
    String uid = admin.configMaps().inNamespace(ns).withName("frozen").get().getMetadata().getUid();

    ApplyResult refused = apply(admin, objects(v2), false);
    assertEquals(Action.FAILED, resultFor(refused, "ConfigMap/" + ns + "/frozen").action());
    assertTrue(
        resultFor(refused, "ConfigMap/" + ns + "/frozen").reason().contains("immutable"),
        refused.toString());
    assertTrue(
        resultFor(refused, "ConfigMap/" + ns + "/frozen").reason().contains("force"),
        refused.toString());
    assertEquals(Action.SKIPPED, resultFor(refused, "ConfigMap/" + ns + "/neighbour").action());
    assertEquals(
        "1", admin.configMaps().inNamespace(ns).withName("neighbour").get().getData().get("v"));

    ApplyResult forced = apply(admin, objects(v2), true);
    assertTrue(forced.succeeded(), forced.objects().toString());
    assertEquals(Action.CREATED, resultFor(forced, "ConfigMap/" + ns + "/frozen").action());
    assertTrue(resultFor(forced, "ConfigMap/" + ns + "/frozen").reason().startsWith("recreated"));
    ConfigMap recreated = admin.configMaps().inNamespace(ns).withName("frozen").get();
    assertEquals("2", recreated.getData().get("v"));
    assertTrue(!uid.equals(recreated.getMetadata().getUid()), "a new object");
    assertEquals(Action.CONFIGURED, resultFor(forced, "ConfigMap/" + ns + "/neighbour").action());
  }

  @Test
  void stagedApplyCreatesCrdNamespaceAndTheirObjects() {
    String s = ItSupport.suffix();
    String group = "g" + s + ".capstan.test";
    String newNs = "staged-" + s;
    ApplyResult result =
        apply(
            admin,
            objects(
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: in-new-namespace, namespace: %2$s}
                ---
                apiVersion: %1$s/v1
                kind: Widget
                metadata: {name: w1}
                spec: {size: 3}
                ---
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.%1$s}
                spec:
                  group: %1$s
                  scope: Namespaced
                  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec: {type: object, properties: {size: {type: integer}}}
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: %2$s}
                """
                    .formatted(group, newNs)),
            false);
    try {
      assertTrue(result.succeeded(), result.objects().toString());
      assertEquals(Action.CREATED, resultFor(result, "Widget/" + ns + "/w1").action());
      assertEquals(
          Action.CREATED, resultFor(result, "ConfigMap/" + newNs + "/in-new-namespace").action());
      assertNotNull(
          admin
              .genericKubernetesResources(group + "/v1", "Widget")
              .inNamespace(ns)
              .withName("w1")
              .get());

      ApplyResult bad =
          apply(
              admin,
              objects(
                  """
                  apiVersion: %s/v1
                  kind: Widget
                  metadata: {name: w2}
                  spec: {size: "not a number"}
                  """
                      .formatted(group)),
              false);
      assertEquals(Action.FAILED, resultFor(bad, "Widget/" + ns + "/w2").action());
      assertTrue(
          resultFor(bad, "Widget/" + ns + "/w2").reason().contains("spec.size"), bad.toString());
    } finally {
      admin.apiextensions().v1().customResourceDefinitions().withName("widgets." + group).delete();
      admin.namespaces().withName(newNs).delete();
    }
  }
}
