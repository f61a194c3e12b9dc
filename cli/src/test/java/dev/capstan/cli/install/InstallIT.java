package dev.capstan.cli.install;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.engine.testing.Kubectl;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.Finalizers;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.RepoRoot;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code kubectl apply -k deploy/} installs Capstan on the local control plane, and the installed
 * ServiceAccount's own token (TokenRequest API) has every right the engine uses, proven by access
 * reviews and by real calls made as that identity.
 */
@ExtendWith(KubernetesCluster.class)
class InstallIT {
  static final String SYSTEM = Installation.SYSTEM;
  static final String LEAST = "capstan-least-privilege";

  /**
   * One right the engine uses: verb on group/resource[/subresource], cluster-wide when namespace is
   * null.
   */
  record Right(String verb, String group, String resource, String subresource, String namespace) {
    @Override
    public String toString() {
      return verb
          + " "
          + (group.isEmpty() ? "" : group + "/")
          + resource
          + (subresource == null ? "" : "/" + subresource)
          + (namespace == null ? " (all namespaces)" : " in " + namespace);
    }
  }

  /** Every right the engine needs for itself, whatever it applies. */
  static List<Right> engineRights() {
    List<Right> rights = new ArrayList<>();
    for (String[] kind :
        new String[][] {
          {"kustomize.capstan.dev", "kustomizations"}, {"source.capstan.dev", "gitrepositories"}
        }) {
      for (String verb : new String[] {"get", "list", "watch", "patch", "update"}) {
        rights.add(new Right(verb, kind[0], kind[1], null, null));
      }
      for (String verb : new String[] {"get", "patch", "update"}) {
        rights.add(new Right(verb, kind[0], kind[1], "status", null));
      }
      rights.add(new Right("update", kind[0], kind[1], "finalizers", null));
    }
    for (String resource : new String[] {"secrets", "configmaps"}) {
      for (String verb : new String[] {"get", "list", "watch"}) {
        rights.add(new Right(verb, "", resource, null, null));
      }
    }
    for (String verb : new String[] {"create", "patch"}) {
      rights.add(new Right(verb, "", "events", null, null));
      rights.add(new Right(verb, "events.k8s.io", "events", null, null));
    }
    for (String verb : new String[] {"get", "list", "watch", "create", "update", "patch"}) {
      rights.add(new Right(verb, "coordination.k8s.io", "leases", null, SYSTEM));
    }
    for (String verb : new String[] {"get", "list", "watch"}) {
      rights.add(new Right(verb, "apiextensions.k8s.io", "customresourcedefinitions", null, null));
    }
    return rights;
  }

  private static Path kubectl;

  @BeforeAll
  static void install(KubernetesClient admin, ClusterAccess access) throws Exception {
    kubectl = Installation.apply(admin, access);
  }

  @AfterAll
  static void uninstall(KubernetesClient admin) {
    admin.rbac().clusterRoleBindings().withName(LEAST).delete();
    admin.rbac().clusterRoleBindings().withName(LEAST + "-impersonate").delete();
    Installation.remove(admin);
  }

  @Test
  void theDeploymentIsHardenedAndProbed(KubernetesClient admin) {
    Deployment deployment =
        admin.apps().deployments().inNamespace(SYSTEM).withName("capstan").get();
    assertNotNull(deployment, "kubectl apply -k deploy/ created the Deployment");
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    assertEquals("capstan", pod.getServiceAccountName());
    assertTrue(pod.getSecurityContext().getRunAsNonRoot());
    Container container = pod.getContainers().get(0);
    assertTrue(container.getSecurityContext().getReadOnlyRootFilesystem());
    assertFalse(container.getSecurityContext().getAllowPrivilegeEscalation());
    assertEquals("/healthz", container.getLivenessProbe().getHttpGet().getPath());
    assertEquals("/readyz", container.getReadinessProbe().getHttpGet().getPath());
    assertNotNull(container.getResources().getRequests().get("cpu"));
    assertNotNull(container.getResources().getRequests().get("memory"));
    assertTrue(
        pod.getVolumes().stream().anyMatch(v -> v.getEmptyDir() != null),
        "an emptyDir for artifacts");
    assertTrue(container.getArgs().contains("run"));
    assertTrue(container.getArgs().contains("--leader-elect"));
    var service = admin.services().inNamespace(SYSTEM).withName("capstan").get();
    assertEquals(
        List.of("http-metrics", "http-webhook"),
        service.getSpec().getPorts().stream().map(p -> p.getName()).toList());
    // The namespace enforces the restricted Pod Security profile: the pod was admitted under it.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                !admin
                    .pods()
                    .inNamespace(SYSTEM)
                    .withLabel("app.kubernetes.io/name", "capstan")
                    .list()
                    .getItems()
                    .isEmpty());
  }

  @Test
  void theShardedInstallRunsThreeReplicasThatShareTheWorkOneDrainedAtATime() throws Exception {
    Kubectl.Result sharded =
        Kubectl.run(kubectl, null, RepoRoot.find(), "kustomize", "deploy/sharded");

    assertEquals(0, sharded.exitCode(), sharded.output());
    assertTrue(sharded.output().contains("replicas: 3"), sharded.output());
    assertTrue(sharded.output().contains("- --shards"), sharded.output());
    assertFalse(sharded.output().contains("--leader-elect"), "sharing replaces the leader");
    assertTrue(sharded.output().contains("kind: PodDisruptionBudget"), sharded.output());
    assertTrue(sharded.output().contains("maxUnavailable: 1"), sharded.output());
  }

  @Test
  void theInstalledServiceAccountTokenHasEveryRightTheEngineUses(
      KubernetesClient admin, TestNamespace ns) throws Exception {
    ServiceAccountIdentity capstan = ServiceAccountIdentity.of(admin, SYSTEM, "capstan");
    try (KubernetesClient client = capstan.client()) {
      List<Right> missing = engineRights().stream().filter(r -> !allowed(client, r)).toList();
      assertEquals(List.of(), missing, "rights the installed ServiceAccount lacks");
      assertTrue(
          allowed(client, new Right("create", "apps", "deployments", null, ns.name())),
          "the default install may apply anything (capstan-apply)");
      exerciseEngineCalls(admin, client, ns);
    }
  }

  @Test
  void theControllerRoleAloneIsEnoughForTheEngineAndGrantsNothingElse(
      KubernetesClient admin, TestNamespace ns, ClusterAccess access) throws Exception {
    // The engine's own ClusterRole and leader-election Role, bound to a fresh service account as
    // the multi-tenant install binds them: no apply rights, only impersonation.
    admin
        .serviceAccounts()
        .inNamespace(ns.name())
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName(LEAST).endMetadata().build())
        .create();
    admin
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(LEAST)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "capstan-controller")
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(LEAST)
                .withNamespace(ns.name())
                .endSubject()
                .build())
        .createOr(r -> r.update());
    admin
        .rbac()
        .roleBindings()
        .inNamespace(SYSTEM)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(LEAST)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "capstan-leader-election")
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(LEAST)
                .withNamespace(ns.name())
                .endSubject()
                .build())
        .createOr(r -> r.update());
    Kubectl.Result impersonation =
        Kubectl.run(kubectl, null, RepoRoot.find(), "kustomize", "deploy/install/multi-tenant");
    assertEquals(0, impersonation.exitCode(), impersonation.output());
    assertTrue(impersonation.output().contains("name: capstan-impersonate"));
    assertFalse(
        impersonation.output().contains("cluster-admin"),
        "the multi-tenant install binds no cluster-admin");
    admin
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(LEAST + "-impersonate")
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "capstan-impersonate")
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(LEAST)
                .withNamespace(ns.name())
                .endSubject()
                .build())
        .createOr(r -> r.update());
    Kubectl.Result applied =
        Kubectl.run(
            kubectl,
            access,
            RepoRoot.find(),
            "apply",
            "-f",
            "deploy/install/multi-tenant/impersonation.yaml");
    assertEquals(0, applied.exitCode(), applied.output());

    ServiceAccountIdentity least = ServiceAccountIdentity.of(admin, ns.name(), LEAST);
    try (KubernetesClient client = least.client()) {
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertEquals(
                      List.of(),
                      engineRights().stream().filter(r -> !allowed(client, r)).toList(),
                      "rights the engine's roles lack"));
      for (Right denied :
          List.of(
              new Right("create", "apps", "deployments", null, ns.name()),
              new Right("create", "", "secrets", null, ns.name()),
              new Right("delete", "", "configmaps", null, ns.name()),
              new Right("create", "coordination.k8s.io", "leases", null, "kube-system"),
              new Right("create", "rbac.authorization.k8s.io", "clusterrolebindings", null, null),
              new Right("delete", "kustomize.capstan.dev", "kustomizations", null, null))) {
        assertFalse(allowed(client, denied), "the engine's own roles must not grant " + denied);
      }
      assertTrue(allowed(client, new Right("impersonate", "", "serviceaccounts", null, ns.name())));
      exerciseEngineCalls(admin, client, ns);
    }
  }

  /**
   * Real requests as the engine makes them: list, watch, patch status, events, the Lease, a Secret.
   */
  private static void exerciseEngineCalls(
      KubernetesClient admin, KubernetesClient client, TestNamespace ns) throws Exception {
    String name = "rbac-" + Long.toHexString(System.nanoTime());
    List<String> seen = new CopyOnWriteArrayList<>();
    try (Watch watch =
        client
            .resources(Kustomization.class)
            .inAnyNamespace()
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, Kustomization resource) {
                    seen.add(action + " " + resource.getMetadata().getName());
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      admin.resource(kustomization(ns, name)).create();
      await().atMost(Duration.ofSeconds(20)).until(() -> seen.contains("ADDED " + name));
    }
    assertTrue(
        client.resources(Kustomization.class).inAnyNamespace().list().getItems().stream()
            .anyMatch(k -> name.equals(k.getMetadata().getName())));

    Kustomization ks =
        client.resources(Kustomization.class).inNamespace(ns.name()).withName(name).get();
    ks.setStatus(
        new KustomizationStatus(
            ks.getMetadata().getGeneration(),
            null,
            null,
            "main@sha1:0123456789abcdef0123456789abcdef01234567",
            null,
            null));
    client.resources(Kustomization.class).inNamespace(ns.name()).resource(ks).patchStatus();
    assertEquals(
        "main@sha1:0123456789abcdef0123456789abcdef01234567",
        admin
            .resources(Kustomization.class)
            .inNamespace(ns.name())
            .withName(name)
            .get()
            .getStatus()
            .lastAttemptedRevision());
    client
        .resources(Kustomization.class)
        .inNamespace(ns.name())
        .withName(name)
        .edit(
            k -> {
              k.getMetadata().setFinalizers(List.of("finalizers.capstan.dev"));
              return k;
            });
    Finalizers.clear(client.resources(Kustomization.class).inNamespace(ns.name()).withName(name));

    client
        .v1()
        .events()
        .inNamespace(ns.name())
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withName(name + ".event")
                .endMetadata()
                .withNewInvolvedObject()
                .withKind("Kustomization")
                .withApiVersion("kustomize.capstan.dev/v1")
                .withName(name)
                .withNamespace(ns.name())
                .endInvolvedObject()
                .withReason("ReconciliationSucceeded")
                .withMessage("rbac check")
                .withType("Normal")
                .build())
        .create();

    Lease lease =
        client
            .leases()
            .inNamespace(SYSTEM)
            .resource(
                new LeaseBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .endMetadata()
                    .withNewSpec()
                    .withHolderIdentity("rbac-check")
                    .withLeaseDurationSeconds(15)
                    .endSpec()
                    .build())
            .create();
    lease.getSpec().setHolderIdentity("rbac-check-2");
    client.leases().inNamespace(SYSTEM).resource(lease).update();
    client.leases().inNamespace(SYSTEM).withName(name).delete();

    admin
        .secrets()
        .inNamespace(ns.name())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addToStringData("token", "x")
                .build())
        .create();
    assertNotNull(client.secrets().inNamespace(ns.name()).withName(name).get());
  }

  static boolean allowed(KubernetesClient client, Right right) {
    SelfSubjectAccessReview review =
        new SelfSubjectAccessReviewBuilder()
            .withNewSpec()
            .withNewResourceAttributes()
            .withVerb(right.verb())
            .withGroup(right.group())
            .withResource(right.resource())
            .withSubresource(right.subresource())
            .withNamespace(right.namespace())
            .endResourceAttributes()
            .endSpec()
            .build();
    try {
      return client
          .authorization()
          .v1()
          .selfSubjectAccessReview()
          .create(review)
          .getStatus()
          .getAllowed();
    } catch (KubernetesClientException e) {
      throw new AssertionError("access review for " + right + " failed: " + e.getMessage(), e);
    }
  }

  static GenericKubernetesResource kustomization(TestNamespace ns, String name) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion("kustomize.capstan.dev/v1");
    resource.setKind("Kustomization");
    resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns.name()).build());
    resource
        .getAdditionalProperties()
        .put(
            "spec",
            Map.of(
                "interval",
                "5m",
                "prune",
                true,
                "path",
                "./",
                "sourceRef",
                Map.of("kind", "GitRepository", "name", "repo")));
    return resource;
  }
}
