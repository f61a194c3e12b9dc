package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.cli.CliRun;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code capstan tree} over real objects: live health, NotFound, nesting. */
@ExtendWith(KubernetesCluster.class)
class TreeCommandIT {
  private static Path kubeconfig;
  private static String ns;

  @BeforeAll
  static void objects(KubernetesClient client, TestNamespace namespace, ClusterAccess access) {
    CapstanCrds.install(client);
    kubeconfig = access.kubeconfig();
    ns = namespace.name();
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("settings")
                .endMetadata()
                .addToData("greeting", "hello")
                .build())
        .create();
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("child-settings")
                .endMetadata()
                .build())
        .create();
    client
        .services()
        .inNamespace(ns)
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("web")
                .endMetadata()
                .withNewSpec()
                .addToSelector("app", "web")
                .addNewPort()
                .withPort(80)
                .endPort()
                .endSpec()
                .build())
        .create();
    client.apps().deployments().inNamespace(ns).resource(deployment()).create();
    client
        .apps()
        .deployments()
        .inNamespace(ns)
        .withName("web")
        .waitUntilCondition(TreeCommandIT::available, 120, TimeUnit.SECONDS);

    CliFixtures fixtures = new CliFixtures(client, ns);
    fixtures.gitRepository("repo");
    fixtures.kustomization("child", "");
    fixtures.setStatus(
        "child",
        s ->
            status(
                "main@sha1:child",
                List.of(new InventoryEntry(ns + "_child-settings__ConfigMap", "v1"))));
    fixtures.kustomization("parent", "");
    fixtures.setStatus(
        "parent",
        s ->
            status(
                "main@sha1:parent",
                List.of(
                    new InventoryEntry("_" + ns + "__Namespace", "v1"),
                    new InventoryEntry(ns + "_settings__ConfigMap", "v1"),
                    new InventoryEntry(ns + "_web__Service", "v1"),
                    new InventoryEntry(ns + "_web_apps_Deployment", "v1"),
                    new InventoryEntry(ns + "_gone__ConfigMap", "v1"),
                    new InventoryEntry(ns + "_old_retired.capstan.dev_Gadget", "v1"),
                    new InventoryEntry(ns + "_child_kustomize.capstan.dev_Kustomization", "v1"))));
  }

  private static KustomizationStatus status(String revision, List<InventoryEntry> entries) {
    return new KustomizationStatus(
        1L,
        List.of(
            new ConditionBuilder()
                .withType("Ready")
                .withStatus("True")
                .withReason("ReconciliationSucceeded")
                .withMessage("Applied revision: " + revision)
                .withLastTransitionTime("2026-01-01T00:00:00Z")
                .build()),
        revision,
        revision,
        null,
        new Inventory(entries));
  }

  private static Deployment deployment() {
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName("web")
        .endMetadata()
        .withNewSpec()
        .withReplicas(1)
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
        .withImage("registry.invalid/web:1")
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private static boolean available(Deployment d) {
    return d != null
        && d.getStatus() != null
        && Integer.valueOf(1).equals(d.getStatus().getAvailableReplicas())
        && Integer.valueOf(1).equals(d.getStatus().getUpdatedReplicas());
  }

  @Test
  void printsTheInventoryGroupedByNamespaceWithLiveHealth() {
    CliRun run = CliRun.capstan(kubeconfig, "tree", "ks", "parent", "-n", ns);
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals(
        List.of(
            "Kustomization/" + ns + "/parent  Ready=True  main@sha1:parent",
            "├── source GitRepository/" + ns + "/repo  Ready=Unknown",
            "├── cluster-scoped",
            "│   └── Namespace/" + ns + "  Current",
            "└── namespace " + ns,
            "    ├── ConfigMap/settings  Current",
            "    ├── Service/web  Current",
            "    ├── Deployment/web  Current",
            "    ├── ConfigMap/gone  NotFound",
            "    ├── Gadget/old  Unknown  cannot read it: retired.capstan.dev/v1 Gadget is not"
                + " served by this cluster",
            "    └── Kustomization/child  Current",
            "        └── namespace " + ns,
            "            └── ConfigMap/child-settings  Current"),
        run.outLines(),
        run::toString);
  }

  @Test
  void aHelmReleaseShowsItsChartReleasesAndObjects(KubernetesClient client) {
    HelmRelease release =
        client
            .resource(
                TestObjects.read(
                    """
                    apiVersion: helm.capstan.dev/v2
                    kind: HelmRelease
                    metadata: {name: web, namespace: %s}
                    spec:
                      interval: 5m
                      chartRef: {kind: HelmChart, name: web-chart}
                      suspend: true
                    """
                        .formatted(ns),
                    HelmRelease.class))
            .create();
    release.setStatus(
        TestObjects.read(
            """
            history:
            - {digest: "sha256:1", configDigest: "sha256:2", name: web, namespace: %s, version: 1,
               status: deployed,
               action: install, chartName: web, chartVersion: 1.0.0,
               firstDeployed: "2026-01-01T00:00:00Z", lastDeployed: "2026-01-01T00:00:00Z"}
            inventory:
              entries:
              - {id: %s_web_apps_Deployment, v: v1}
              - {id: %s_web__Service, v: v1}
            """
                .formatted(ns, ns, ns),
            HelmReleaseStatus.class));
    client.resource(release).updateStatus();

    CliRun run = CliRun.capstan(kubeconfig, "tree", "hr", "web", "-n", ns);

    assertEquals(0, run.exitCode(), run::toString);
    assertEquals(
        List.of(
            "HelmRelease/" + ns + "/web  Ready=Unknown  1.0.0",
            "├── chart HelmChart/" + ns + "/web-chart  NotFound",
            "├── last releases",
            "│   └── v1  deployed (install)  web@1.0.0  deployed 2026-01-01T00:00:00Z",
            "└── namespace " + ns,
            "    ├── Deployment/web  Current",
            "    └── Service/web  Current"),
        run.out().lines().toList(),
        run::toString);
  }

  @Test
  void onlyKustomizationsAndHelmReleasesHaveATree() {
    CliRun run = CliRun.capstan(kubeconfig, "tree", "gitrepo", "parent", "-n", ns);
    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(
        run.err().contains("only Kustomizations and HelmReleases have an inventory"),
        run::toString);
  }

  @Test
  void aMissingKustomizationFailsInOneLine() {
    CliRun run = CliRun.capstan(kubeconfig, "tree", "ks", "nope", "-n", ns);
    assertEquals(1, run.exitCode(), run::toString);
    assertEquals("error: Kustomization nope not found in namespace " + ns + "\n", run.err());
  }
}
