package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.health.cel.BuiltinLibrary;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InventoryTreeTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  private final Map<String, GenericKubernetesResource> cluster = new HashMap<>();
  private final StringWriter warnings = new StringWriter();

  private void put(String yaml) {
    GenericKubernetesResource object = TestObjects.generic(yaml);
    String ns =
        object.getMetadata().getNamespace() == null ? "" : object.getMetadata().getNamespace();
    cluster.put(
        object.getApiVersion()
            + "/"
            + object.getKind()
            + "/"
            + ns
            + "/"
            + object.getMetadata().getName(),
        object);
  }

  private List<String> tree(String rootYaml) {
    return treeOf(TreeRoot.of(TestObjects.read(rootYaml, Kustomization.class)));
  }

  private List<String> treeOf(TreeRoot root) {
    InventoryTree.LiveObjects live =
        (apiVersion, kind, ns, name) -> {
          if (kind.equals("Broken")) {
            throw new KubernetesClientException(
                "the server doesn't have a resource type \"Broken\"");
          }
          return Optional.ofNullable(cluster.get(apiVersion + "/" + kind + "/" + ns + "/" + name));
        };
    InventoryTree tree =
        new InventoryTree(live, BuiltinLibrary.none(), CLOCK, new PrintWriter(warnings, true));
    return tree.of(root).render();
  }

  private static final String APP =
      """
      apiVersion: kustomize.capstan.dev/v1
      kind: Kustomization
      metadata: {name: app, namespace: capstan-demo}
      spec:
        interval: 1m
        prune: true
        sourceRef: {kind: GitRepository, name: demo}
        healthCheckExprs:
        - apiVersion: demo.capstan.dev/v1
          kind: Widget
          current: "has(status.phase) && status.phase == 'Ready'"
          inProgress: "!has(status.phase) || status.phase == 'Pending'"
      status:
        lastAppliedRevision: main@sha1:abc
        conditions:
        - {type: Ready, status: "True", reason: ReconciliationSucceeded, message: ok,
           lastTransitionTime: "2026-01-01T00:00:00Z"}
        inventory:
          entries:
          - {id: demo_web_apps_Deployment, v: v1}
          - {id: _demo__Namespace, v: v1}
          - {id: demo_main_demo.capstan.dev_Widget, v: v1}
          - {id: demo_settings__ConfigMap, v: v1}
          - {id: other_thing_x.dev_Broken, v: v1}
          - {id: capstan-demo_nested_kustomize.capstan.dev_Kustomization, v: v1}
      """;

  @Test
  void groupsByNamespaceWithLiveHealthAndNestsKustomizations() {
    put("apiVersion: v1\nkind: Namespace\nmetadata: {name: demo}\n");
    put(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: demo, generation: 1}
        spec: {replicas: 2}
        status: {observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 1}
        """);
    put(
        """
        apiVersion: demo.capstan.dev/v1
        kind: Widget
        metadata: {name: main, namespace: demo}
        status: {phase: Pending}
        """);
    put(
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: nested, namespace: capstan-demo, generation: 1}
        spec: {interval: 1m, prune: true, sourceRef: {kind: GitRepository, name: demo}}
        status:
          observedGeneration: 1
          conditions:
          - {type: Ready, status: "True", reason: ReconciliationSucceeded, message: ok,
             lastTransitionTime: "2026-01-01T00:00:00Z"}
          inventory:
            entries:
            - {id: demo_extra__ConfigMap, v: v1}
        """);
    put(
        "apiVersion: v1\n"
            + "kind: ConfigMap\n"
            + "metadata: {name: extra, namespace: demo}\n"
            + "data: {a: b}\n");

    List<String> lines = tree(APP);

    assertEquals("Kustomization/capstan-demo/app  Ready=True  main@sha1:abc", lines.get(0));
    assertEquals("├── source GitRepository/capstan-demo/demo  NotFound", lines.get(1));
    assertEquals("├── cluster-scoped", lines.get(2));
    assertEquals("│   └── Namespace/demo  Current", lines.get(3));
    assertEquals("├── namespace capstan-demo", lines.get(4));
    assertEquals("│   └── Kustomization/nested  Current", lines.get(5));
    assertEquals("│       └── namespace demo", lines.get(6));
    assertEquals("│           └── ConfigMap/extra  Current", lines.get(7));
    assertEquals("├── namespace demo", lines.get(8));
    assertTrue(lines.get(9).startsWith("│   ├── Deployment/web  InProgress  "), lines.get(9));
    assertTrue(lines.get(10).startsWith("│   ├── Widget/main  InProgress"), lines.get(10));
    assertEquals("│   └── ConfigMap/settings  NotFound", lines.get(11));
    assertEquals("└── namespace other", lines.get(12));
    assertTrue(
        lines
            .get(13)
            .startsWith("    └── Broken/thing  Unknown  cannot read it: the server doesn't have"),
        lines.get(13));
    assertEquals(14, lines.size(), String.join("\n", lines));
  }

  @Test
  void dependenciesComeFirstWithTheirLiveState() {
    put(
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: infra, namespace: capstan-demo, generation: 1}
        spec: {interval: 1m, prune: true, sourceRef: {kind: GitRepository, name: demo}}
        status:
          observedGeneration: 1
          conditions:
          - {type: Ready, status: "False", reason: HealthCheckFailed, message: no,
             lastTransitionTime: "2026-01-01T00:00:00Z"}
        """);
    put(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: db, namespace: data, generation: 1}
        spec: {replicas: 1}
        status:
          observedGeneration: 1
          replicas: 1
          updatedReplicas: 1
          readyReplicas: 1
          availableReplicas: 1
          conditions:
          - {type: Available, status: "True", reason: MinimumReplicasAvailable}
          - {type: Progressing, status: "True", reason: NewReplicaSetAvailable}
        """);
    String app =
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: app, namespace: capstan-demo}
        spec:
          interval: 1m
          sourceRef: {kind: GitRepository, name: demo}
          dependsOn:
          - {name: infra}
          - {apiVersion: apps/v1, kind: Deployment, name: db, namespace: data}
          - {apiVersion: v1, kind: ConfigMap, name: flags, readyExpr: "dep.data.ok == 'yes'"}
        """;

    List<String> lines = tree(app);

    assertEquals("├── source GitRepository/capstan-demo/demo  NotFound", lines.get(1));
    assertEquals("├── depends on", lines.get(2));
    assertEquals("│   ├── Kustomization/capstan-demo/infra  Ready=False", lines.get(3));
    assertEquals("│   ├── apps/v1/Deployment/data/db  Current", lines.get(4));
    assertEquals(
        "│   └── v1/ConfigMap/capstan-demo/flags  NotFound  readyExpr 'dep.data.ok == 'yes''",
        lines.get(5));
    assertEquals("└── (no inventory: nothing applied yet)", lines.get(6));
  }

  @Test
  void theKustomizationsCelChecksDecideCustomResourceHealth() {
    put(
        """
        apiVersion: demo.capstan.dev/v1
        kind: Widget
        metadata: {name: main, namespace: demo}
        status: {phase: Ready}
        """);
    List<String> lines = tree(APP);
    assertTrue(lines.contains("│   ├── Widget/main  Current"), String.join("\n", lines));
  }

  @Test
  void aCycleOfInventoriesIsShownOnceAndMarked() {
    put(
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: a, namespace: ns}
        spec: {interval: 1m, prune: true, sourceRef: {kind: GitRepository, name: demo}}
        status:
          inventory:
            entries:
            - {id: ns_root_kustomize.capstan.dev_Kustomization, v: v1}
        """);
    put(
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: root, namespace: ns}
        spec: {interval: 1m, prune: true, sourceRef: {kind: GitRepository, name: demo}}
        """);
    List<String> lines =
        tree(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata: {name: root, namespace: ns}
            spec: {interval: 1m, prune: true, sourceRef: {kind: GitRepository, name: demo}}
            status:
              inventory:
                entries:
                - {id: ns_a_kustomize.capstan.dev_Kustomization, v: v1}
            """);
    assertEquals("Kustomization/ns/root  Ready=Unknown", lines.get(0));
    assertTrue(
        lines.get(lines.size() - 1).contains("Kustomization/root  Current  (cycle"),
        String.join("\n", lines));
  }

  @Test
  void anEmptyInventorySaysNothingWasApplied() {
    List<String> lines =
        tree(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata: {name: fresh, namespace: ns}
            spec: {interval: 1m, prune: true, sourceRef: {kind: GitRepository, name: demo}}
            """);
    assertEquals(
        List.of(
            "Kustomization/ns/fresh  Ready=Unknown",
            "├── source GitRepository/ns/demo  NotFound",
            "└── (no inventory: nothing applied yet)"),
        lines);
  }

  @Test
  void theSourceComesFirstWithItsKindReadyAndRevision() {
    put(
        """
        apiVersion: source.capstan.dev/v1
        kind: OCIRepository
        metadata: {name: podinfo, namespace: ns}
        spec: {url: "oci://registry.example/podinfo", interval: 5m}
        status:
          artifact: {revision: "latest@sha256:abc", digest: "sha256:ef"}
          conditions:
          - {type: Ready, status: "False", reason: OCIArtifactLayerOperationFailed,
             message: "layer digest mismatch", lastTransitionTime: "2026-01-01T00:00:00Z"}
        """);
    put(
        """
        apiVersion: source.capstan.dev/v1
        kind: ExternalArtifact
        metadata: {name: generated, namespace: other}
        status:
          artifact: {revision: "v2", digest: "sha256:12", url: "http://producer.example/a.tgz"}
          conditions:
          - {type: Ready, status: "True", reason: Succeeded, message: ok,
             lastTransitionTime: "2026-01-01T00:00:00Z"}
        """);
    String oci =
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: app, namespace: ns}
        spec: {interval: 1m, prune: true, sourceRef: {kind: OCIRepository, name: podinfo}}
        """;
    String external =
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: app, namespace: ns}
        spec:
          interval: 1m
          sourceRef: {kind: ExternalArtifact, name: generated, namespace: other}
        """;

    assertEquals(
        "├── source OCIRepository/ns/podinfo  Ready=False  latest@sha256:abc", tree(oci).get(1));
    assertEquals(
        "├── source ExternalArtifact/other/generated  Ready=True  v2", tree(external).get(1));
  }

  @Test
  void anInvalidHealthCheckIsAWarningNotAFailure() {
    put(
        """
        apiVersion: demo.capstan.dev/v1
        kind: Widget
        metadata: {name: main, namespace: demo}
        status: {phase: Ready}
        """);
    List<String> lines =
        tree(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata: {name: app, namespace: ns}
            spec:
              interval: 1m
              prune: true
              sourceRef: {kind: GitRepository, name: demo}
              healthCheckExprs:
              - {apiVersion: demo.capstan.dev/v1, kind: Widget, current: "status.phase =="}
            status:
              inventory:
                entries:
                - {id: demo_main_demo.capstan.dev_Widget, v: v1}
            """);
    assertEquals("    └── Widget/main  Current", lines.get(3));
    assertTrue(
        warnings
            .toString()
            .startsWith("warning: Kustomization app: its healthCheckExprs are ignored"),
        warnings.toString());
  }

  @Test
  void aHelmReleaseShowsItsChartDependenciesReleasesAndObjects() {
    put(
        """
        apiVersion: source.capstan.dev/v1
        kind: HelmChart
        metadata: {name: apps-podinfo, namespace: flux-system}
        status:
          conditions:
          - {type: Ready, status: "True", reason: ChartPullSucceeded, message: ok,
             lastTransitionTime: "2026-01-01T00:00:00Z"}
          artifact: {revision: 6.5.0, digest: "sha256:1", path: p, url: u,
                     lastUpdateTime: "2026-01-01T00:00:00Z"}
        """);
    put(
        """
        apiVersion: helm.capstan.dev/v2
        kind: HelmRelease
        metadata: {name: redis, namespace: apps}
        status:
          conditions:
          - {type: Ready, status: "False", reason: UpgradeFailed, message: failed,
             lastTransitionTime: "2026-01-01T00:00:00Z"}
        """);
    put(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: podinfo, namespace: apps, generation: 2}
        spec: {replicas: 1}
        status:
          observedGeneration: 2
          replicas: 1
          updatedReplicas: 1
          readyReplicas: 1
          availableReplicas: 1
          conditions:
          - {type: Available, status: "True"}
        """);

    List<String> lines =
        treeOf(
            TreeRoot.of(
                TestObjects.read(
                    """
                    apiVersion: helm.capstan.dev/v2
                    kind: HelmRelease
                    metadata: {name: podinfo, namespace: apps}
                    spec:
                      interval: 5m
                      chart:
                        spec: {chart: podinfo, sourceRef: {kind: HelmRepository, name: podinfo}}
                      dependsOn:
                      - {name: redis}
                      - {apiVersion: v1, kind: ConfigMap, name: flags, readyExpr: "true"}
                    status:
                      helmChart: flux-system/apps-podinfo
                      conditions:
                      - {type: Ready, status: "True", reason: UpgradeSucceeded, message: ok,
                         lastTransitionTime: "2026-01-01T00:00:00Z"}
                      history:
                      - {digest: "sha256:2", name: podinfo, namespace: apps, version: 2,
                         status: deployed, action: upgrade, chartName: podinfo, chartVersion: 6.5.0,
                         firstDeployed: "2026-01-01T00:00:00Z", lastDeployed: "2026-01-02T00:00:00Z"}
                      - {digest: "sha256:1", name: podinfo, namespace: apps, version: 1,
                         status: superseded, action: install, chartName: podinfo,
                         chartVersion: 6.4.0, firstDeployed: "2026-01-01T00:00:00Z",
                         lastDeployed: "2026-01-01T00:00:00Z"}
                      inventory:
                        entries:
                        - {id: apps_podinfo_apps_Deployment, v: v1}
                        - {id: apps_podinfo__Service, v: v1}
                    """,
                    HelmRelease.class)));

    assertEquals(
        List.of(
            "HelmRelease/apps/podinfo  Ready=True  6.5.0",
            "├── chart HelmChart/flux-system/apps-podinfo  Ready=True  6.5.0",
            "├── depends on",
            "│   ├── HelmRelease/apps/redis  Ready=False",
            "│   └── v1/ConfigMap/apps/flags  NotFound  readyExpr 'true'",
            "├── last releases",
            "│   ├── v2  deployed (upgrade)  podinfo@6.5.0  deployed 2026-01-02T00:00:00Z",
            "│   └── v1  superseded (install)  podinfo@6.4.0  deployed 2026-01-01T00:00:00Z",
            "└── namespace apps",
            "    ├── Deployment/podinfo  Current",
            "    └── Service/podinfo  NotFound"),
        lines);
  }
}
