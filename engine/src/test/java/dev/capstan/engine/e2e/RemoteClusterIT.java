package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.SecretKeyReference;
import dev.capstan.api.kustomize.KubeConfigReference;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.http.ClientEventLoops;
import dev.capstan.engine.remote.RemoteClientFactory;
import dev.capstan.engine.remote.RemoteClusters;
import dev.capstan.engine.testing.Kubectl;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.RemoteCluster;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code spec.kubeConfig.secretRef}: a Kustomization applies, prunes, waits for and watches the
 * health of its objects on a second, real control plane, while the engine's own cluster holds only
 * the Kustomization and its status. A kubeconfig that cannot be used says why on Ready and applies
 * nothing; exec plugins and file paths are refused. {@code configMapRef} authenticates with a token
 * of a service account of the engine's cluster, which the second cluster trusts (see
 * RemoteClusterProvisioner): it applies with what the remote grants that identity, and no more.
 */
@ExtendWith(RemoteCluster.class)
class RemoteClusterIT extends EngineTestBase {
  private static RemoteCluster.Access remote;
  private static ClusterAccess local;

  @BeforeAll
  static void secondCluster(RemoteCluster.Access access, ClusterAccess engineCluster) {
    remote = access;
    local = engineCluster;
    remote.ensureNamespace(ns());
  }

  @Test
  void kubectlExplainDescribesTheField() throws Exception {
    Path kubectl = Kubectl.find().orElseThrow(() -> new AssertionError("no kubectl"));
    Kubectl.Result explain =
        Kubectl.run(
            kubectl,
            local,
            Path.of("."),
            "explain",
            "kustomizations.spec.kubeConfig",
            "--api-version=kustomize.capstan.dev/v1");
    assertEquals(0, explain.exitCode(), explain.output());
    assertTrue(
        explain
            .output()
            .replaceAll("\\s+", " ")
            .contains("Apply to a remote cluster instead of the engine's own"),
        explain.output());
    assertTrue(
        explain.output().contains("secretRef") && explain.output().contains("configMapRef"),
        explain.output());
    Kubectl.Result secretRef =
        Kubectl.run(
            kubectl,
            local,
            Path.of("."),
            "explain",
            "kustomizations.spec.kubeConfig.secretRef",
            "--api-version=kustomize.capstan.dev/v1");
    assertTrue(
        secretRef
            .output()
            .replaceAll("\\s+", " ")
            .contains("exec and auth-provider plugins and file paths are refused"),
        secretRef.output());
  }

  @AfterAll
  static void deleteRemoteNamespace() {
    if (remote != null) {
      remote.client().namespaces().withName(ns()).delete();
    }
  }

  private static void kubeconfigSecret(String name, String kubeconfig) {
    engine
        .client
        .secrets()
        .inNamespace(ns())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withStringData(Map.of("value", kubeconfig))
                .build())
        .serverSideApply();
  }

  @Test
  void appliesWaitsWatchesAndPrunesOnTheRemoteClusterOnly() {
    kubeconfigSecret("remote-kubeconfig", remote.kubeconfigText());
    git.commit(
        Map.of(
            "app/settings.yaml", Manifests.configMap("remote-settings", "1"),
            "app/web.yaml", Manifests.deployment("remote-web", "", 60)));
    engine.gitRepository("repo", git.url());
    engine.kustomization(
        "app",
        "repo",
        "./app",
        """
          wait: true
          timeout: 2m
          kubeConfig: {secretRef: {name: remote-kubeconfig}}
        """);

    Condition ready =
        engine.awaitCondition("app", "Ready", Duration.ofSeconds(120), EngineTestBase::isTrue);
    assertTrue(ready.getMessage().startsWith("Applied revision"), ready.getMessage());
    assertNotNull(remote.client().configMaps().inNamespace(ns()).withName("remote-settings").get());
    Deployment web =
        remote.client().apps().deployments().inNamespace(ns()).withName("remote-web").get();
    assertNotNull(web);
    // wait: true was satisfied by the remote Deployment's rollout: there is no other.
    assertEquals(1, web.getStatus().getAvailableReplicas());
    assertNull(
        engine.client.configMaps().inNamespace(ns()).withName("remote-settings").get(),
        "nothing is applied to the engine's own cluster");
    assertNull(engine.client.apps().deployments().inNamespace(ns()).withName("remote-web").get());
    var inventory = engine.kustomization("app").getStatus().inventory().entries();
    assertTrue(
        inventory.stream().anyMatch(e -> e.id().equals(ns() + "_remote-web_apps_Deployment")),
        inventory.toString());
    engine.awaitCondition("app", "Healthy", Duration.ofSeconds(30), EngineTestBase::isTrue);

    // The health monitor watches the remote cluster: an object deleted there is seen missing.
    remote.client().configMaps().inNamespace(ns()).withName("remote-settings").delete();
    Condition healthy =
        engine.awaitCondition(
            "app",
            "Healthy",
            Duration.ofSeconds(30),
            c ->
                !isTrue(c) && c.getMessage() != null && c.getMessage().contains("remote-settings"));
    assertTrue(
        healthy.getMessage().contains("ConfigMap/" + ns() + "/remote-settings"),
        healthy.getMessage());

    // A new revision without the ConfigMap prunes it on the remote cluster, and restores nothing.
    String revision =
        git.commit(
            Map.of(
                "app/settings.yaml",
                Manifests.configMap("remote-settings", "1")
                    .replace("remote-settings", "remote-other")));
    engine.requestReconcile(GitRepository.class, "repo");
    engine.awaitCondition(
        "app",
        "Ready",
        Duration.ofSeconds(90),
        c ->
            isTrue(c)
                && revision.equals(engine.kustomization("app").getStatus().lastAppliedRevision()));
    assertNotNull(remote.client().configMaps().inNamespace(ns()).withName("remote-other").get());
    assertNull(remote.client().configMaps().inNamespace(ns()).withName("remote-settings").get());
    assertNull(engine.client.configMaps().inNamespace(ns()).withName("remote-other").get());

    // Deleting the Kustomization (prune: true) deletes its objects on the remote cluster.
    engine.client.resources(Kustomization.class).inNamespace(ns()).withName("app").delete();
    EngineFixture.eventually(Duration.ofSeconds(60))
        .until(
            () ->
                remote.client().apps().deployments().inNamespace(ns()).withName("remote-web").get()
                        == null
                    && remote.client().configMaps().inNamespace(ns()).withName("remote-other").get()
                        == null);
  }

  @Test
  void theServiceAccountIsImpersonatedOnTheRemoteCluster() {
    Tenants.configMapTenant(remote.client(), ns(), "remote-deployer");
    kubeconfigSecret("tenant-kubeconfig", remote.kubeconfigText());
    git.commit(
        Map.of(
            "tenant/own.yaml", Tenants.configMapIn(ns(), "tenant-own"),
            "tenant/token.yaml", Tenants.secretIn(ns(), "tenant-token")));
    engine.gitRepository("tenant-repo", git.url());
    engine.kustomization(
        "tenant",
        "tenant-repo",
        "./tenant",
        """
          serviceAccountName: remote-deployer
          kubeConfig: {secretRef: {name: tenant-kubeconfig}}
        """);

    Condition ready =
        engine.awaitCondition(
            "tenant", "Ready", Duration.ofSeconds(60), c -> "ApplyFailed".equals(c.getReason()));
    assertTrue(
        ready.getMessage().contains("system:serviceaccount:" + ns() + ":remote-deployer"),
        ready.getMessage());
    assertTrue(ready.getMessage().contains("tenant-token"), ready.getMessage());
    assertNull(
        remote.client().secrets().inNamespace(ns()).withName("tenant-token").get(),
        "the remote service account may not write Secrets");
  }

  @Test
  void aKubeconfigThatCannotBeUsedSaysWhyAppliesNothingAndIsRetriedUntilFixed() {
    String good = remote.kubeconfigText();
    String exec =
        good.replaceFirst(
            "(?m)^(\\s+)client-certificate-data: .*$",
            "$1exec: {apiVersion: client.authentication.k8s.io/v1, command:"
                + " /bin/leak-credentials}");
    kubeconfigSecret("bad-kubeconfig", exec);
    git.commit(Map.of("bad/settings.yaml", Manifests.configMap("never-half-applied", "1")));
    engine.gitRepository("bad-repo", git.url());
    engine.kustomization(
        "bad",
        "bad-repo",
        "./bad",
        """
          retryInterval: 2s
          kubeConfig: {secretRef: {name: bad-kubeconfig}}
        """);

    Condition refused =
        engine.awaitCondition(
            "bad",
            "Ready",
            Duration.ofSeconds(60),
            c -> "ReconciliationFailed".equals(c.getReason()));
    assertEquals("False", refused.getStatus());
    assertTrue(
        refused
                .getMessage()
                .contains(
                    "the kubeconfig in Secret '"
                        + ns()
                        + "/bad-kubeconfig' key 'value' "
                        + "cannot be used: user 'capstan-admin' uses 'exec', which is not allowed")
            || refused.getMessage().contains("uses 'exec', which is not allowed"),
        refused.getMessage());
    assertFalse(refused.getMessage().contains("/bin/leak-credentials"), refused.getMessage());

    // An unreachable API server: a clear reason, and still nothing applied anywhere.
    kubeconfigSecret(
        "bad-kubeconfig",
        good.replaceFirst("server: https://127\\.0\\.0\\.1:\\d+", "server: https://127.0.0.1:1"));
    Condition unreachable =
        engine.awaitCondition(
            "bad",
            "Ready",
            Duration.ofSeconds(60),
            c ->
                "ReconciliationFailed".equals(c.getReason())
                    && c.getMessage().contains("cannot be reached"));
    assertTrue(
        unreachable
            .getMessage()
            .startsWith(
                "the API server of the remote cluster of Secret '"
                    + ns()
                    + "/bad-kubeconfig' key 'value' cannot be reached: connection refused"),
        unreachable.getMessage());
    assertFalse(unreachable.getMessage().contains("client-key-data"), unreachable.getMessage());
    assertNull(remote.client().configMaps().inNamespace(ns()).withName("never-half-applied").get());
    assertNull(engine.client.configMaps().inNamespace(ns()).withName("never-half-applied").get());

    // The Secret fixed: the next retry builds a new client from the new resourceVersion.
    kubeconfigSecret("bad-kubeconfig", good);
    engine.awaitCondition("bad", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    assertNotNull(
        remote.client().configMaps().inNamespace(ns()).withName("never-half-applied").get());
    assertNull(engine.client.configMaps().inNamespace(ns()).withName("never-half-applied").get());
  }

  @Test
  void clientsAreKeptPerSecretVersionBoundedAndClosedWhenReplacedOrForgotten() {
    kubeconfigSecret("cache-kubeconfig", remote.kubeconfigText());
    List<String> closed = new CopyOnWriteArrayList<>();
    try (ClientEventLoops eventLoops = ClientEventLoops.start();
        RemoteClusters<String> clusters =
            new RemoteClusters<>(
                engine.client,
                RemoteClientFactory.defaults(eventLoops.http()),
                client -> "acting",
                1)) {
      clusters.onClosed(closed::add);
      Kustomization first = withKubeConfig("first", "cache-kubeconfig");
      RemoteClusters.Remote<String> one = clusters.remoteFor(first, Optional.empty());
      clusters.checkReachable(one);
      assertEquals(
          one.id(),
          clusters.remoteFor(first, Optional.empty()).id(),
          "same Secret version: same client");

      kubeconfigSecret("cache-kubeconfig", remote.kubeconfigText() + "\n# rotated\n");
      RemoteClusters.Remote<String> two = clusters.remoteFor(first, Optional.empty());
      assertNotEquals(one.id(), two.id(), "a new Secret version builds a new client");
      assertEquals(List.of(one.id()), closed, "and closes the old one");
      assertThrows(
          IllegalStateException.class, () -> one.client().getKubernetesVersion(), "closed");

      RemoteClusters.Remote<String> other =
          clusters.remoteFor(withKubeConfig("second", "cache-kubeconfig"), Optional.empty());
      assertEquals(
          List.of(one.id(), two.id()),
          closed,
          "beyond the bound the least recently used is closed");
      assertEquals(1, clusters.cachedClients());

      clusters.forget(new NamespacedName(ns(), "second"));
      assertEquals(List.of(one.id(), two.id(), other.id()), closed);
      assertEquals(0, clusters.cachedClients());
    }
  }

  private static Kustomization withKubeConfig(String name, String secret) {
    Kustomization ks = new Kustomization();
    ks.setMetadata(new ObjectMetaBuilder().withNamespace(ns()).withName(name).build());
    ks.setSpec(
        new KustomizationSpec(
            null,
            null,
            "1m",
            null,
            null,
            true,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            new KubeConfigReference(new SecretKeyReference(secret, null), null),
            null,
            null));
    return ks;
  }

  @Test
  void configMapRefSendsAServiceAccountTokenOfThisClusterAndSaysWhatTheRemoteAnswers() {
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("token-access")
                .endMetadata()
                .withData(
                    Map.of(
                        "provider",
                        "aws",
                        "cluster",
                        "arn:aws:eks:eu-central-1:123456789012:cluster/prod"))
                .build())
        .serverSideApply();
    git.commit(Map.of("token/settings.yaml", Manifests.configMap("token-settings", "1")));
    engine.gitRepository("token-repo", git.url());
    engine.kustomization(
        "token",
        "token-repo",
        "./token",
        """
          retryInterval: 2s
          kubeConfig: {configMapRef: {name: token-access}}
        """);
    Condition cloud =
        engine.awaitCondition(
            "token",
            "Ready",
            Duration.ofSeconds(60),
            c -> "ReconciliationFailed".equals(c.getReason()));
    assertTrue(
        cloud
            .getMessage()
            .contains(
                "ConfigMap '"
                    + ns()
                    + "/token-access' cannot be used: provider 'aws' "
                    + "is not supported"),
        cloud.getMessage());

    // generic: a token of a service account of this cluster, here for an audience the second
    // cluster does not accept, so it answers 401, and the reason says so.
    Map<String, String> generic = new HashMap<>(tokenAccess("remote-identity"));
    generic.put("audiences", "https://elsewhere.example\n");
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("token-access")
                .endMetadata()
                .withData(generic)
                .build())
        .createOr(e -> e.update());
    Condition noAccount =
        engine.awaitCondition(
            "token",
            "Ready",
            Duration.ofSeconds(60),
            c -> c.getMessage().contains("cannot get a token of service account"));
    assertTrue(
        noAccount.getMessage().contains("'" + ns() + "/remote-identity'"), noAccount.getMessage());

    engine
        .client
        .serviceAccounts()
        .inNamespace(ns())
        .resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName("remote-identity")
                .endMetadata()
                .build())
        .serverSideApply();
    Condition unauthorized =
        engine.awaitCondition(
            "token",
            "Ready",
            Duration.ofSeconds(60),
            c -> c.getMessage().contains("refused the request"));
    assertEquals("ReconciliationFailed", unauthorized.getReason());
    assertTrue(
        unauthorized
            .getMessage()
            .startsWith(
                "the API server of the remote cluster of ConfigMap '"
                    + ns()
                    + "/token-access' refused the request: HTTP 401"),
        unauthorized.getMessage());
    assertNull(remote.client().configMaps().inNamespace(ns()).withName("token-settings").get());
  }

  /**
   * Flux's generic token access to the second cluster, as {@code serviceAccount} of the test's
   * namespace.
   */
  /**
   * The ConfigMap names the audiences and the address: a token this cluster itself would accept is
   * never sent anywhere.
   */
  @Test
  void configMapRefRefusesATokenThisClusterWouldAccept() {
    engine
        .client
        .serviceAccounts()
        .inNamespace(ns())
        .resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName("local-audience")
                .endMetadata()
                .build())
        .serverSideApply();
    Map<String, String> data = new HashMap<>(tokenAccess("local-audience"));
    // The local control plane's issuer, which its API server accepts as an audience.
    data.put("audiences", "https://kubernetes.default.svc.cluster.local\n");
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("local-audience-access")
                .endMetadata()
                .withData(data)
                .build())
        .serverSideApply();
    git.commit(Map.of("local-audience/settings.yaml", Manifests.configMap("la-settings", "1")));
    engine.gitRepository("la-repo", git.url());
    engine.kustomization(
        "local-audience",
        "la-repo",
        "./local-audience",
        """
          retryInterval: 2s
          kubeConfig: {configMapRef: {name: local-audience-access}}
        """);
    Condition refused =
        engine.awaitCondition(
            "local-audience",
            "Ready",
            Duration.ofSeconds(60),
            c -> c.getMessage().contains("would be accepted by this cluster's own API server"));
    assertEquals("ReconciliationFailed", refused.getReason());
    assertTrue(
        remote.client().configMaps().inNamespace(ns()).withName("la-settings").get() == null,
        "nothing was applied with the token");
  }

  private static Map<String, String> tokenAccess(String serviceAccount) {
    String server = remote.client().getConfiguration().getMasterUrl().replaceAll("/$", "");
    String ca =
        new String(
            Base64.getDecoder().decode(remote.client().getConfiguration().getCaCertData()),
            StandardCharsets.UTF_8);
    return Map.of(
        "provider",
        "generic",
        "address",
        server,
        "ca.crt",
        ca,
        "serviceAccountName",
        serviceAccount);
  }

  @Test
  void configMapRefAppliesAsTheServiceAccountOfThisClusterWithWhatTheRemoteGrantsIt() {
    String identity = "system:serviceaccount:" + ns() + ":token-deployer";
    engine
        .client
        .serviceAccounts()
        .inNamespace(ns())
        .resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName("token-deployer")
                .endMetadata()
                .build())
        .serverSideApply();
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("deployer-access")
                .endMetadata()
                .withData(tokenAccess("token-deployer"))
                .build())
        .serverSideApply();
    // The remote grants the other cluster's service account, by its user name, ConfigMaps here
    // only.
    remote
        .client()
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("token-deployer")
                .withNamespace(ns())
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("configmaps")
                .withVerbs("get", "list", "watch", "create", "update", "patch", "delete")
                .endRule()
                .build())
        .serverSideApply();
    remote
        .client()
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("token-deployer")
                .withNamespace(ns())
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "token-deployer")
                .addNewSubject()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("User")
                .withName(identity)
                .endSubject()
                .build())
        .serverSideApply();
    String reader = ns() + "-configmap-reader";
    try {
      appliesUntilTheRemoteTakesTheGrantBack(identity, reader);
    } finally {
      remote.client().resources(ClusterRoleBinding.class).withName(reader).delete();
      remote.client().resources(ClusterRole.class).withName(reader).delete();
    }
  }

  private void appliesUntilTheRemoteTakesTheGrantBack(String identity, String reader) {
    git.commit(Map.of("deployer/settings.yaml", Manifests.configMap("token-applied", "1")));
    engine.gitRepository("deployer-repo", git.url());
    engine.kustomization(
        "deployer",
        "deployer-repo",
        "./deployer",
        // The remote takes its grants back at the end: what the identity applied there, it may
        // not even get then, so deleting this Kustomization leaves its objects (the namespace
        // goes with the test); a refused deletion would keep it, as Flux's.
        """
          retryInterval: 2s
          deletionPolicy: Orphan
          kubeConfig: {configMapRef: {name: deployer-access}}
        """);

    Condition ready =
        engine.awaitCondition("deployer", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    assertTrue(ready.getMessage().startsWith("Applied revision"), ready.getMessage());
    assertNotNull(
        remote.client().configMaps().inNamespace(ns()).withName("token-applied").get(),
        "applied on the remote cluster");
    assertNull(
        engine.client.configMaps().inNamespace(ns()).withName("token-applied").get(),
        "nothing is applied to the engine's own cluster");
    // The health monitor watches the kinds in all namespaces, as the identity the remote sees:
    // refused that, Healthy says so; granted, the next reconcile watches and finds it healthy.
    Condition unwatched =
        engine.awaitCondition(
            "deployer",
            "Healthy",
            Duration.ofSeconds(30),
            c -> c.getMessage() != null && c.getMessage().contains("cannot watch"));
    assertEquals("Unknown", unwatched.getStatus());
    assertTrue(
        unwatched.getMessage().contains("cannot watch ConfigMap in all namespaces: HTTP 403"),
        unwatched.getMessage());
    remote
        .client()
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName(reader)
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("configmaps")
                .withVerbs("list", "watch")
                .endRule()
                .build())
        .serverSideApply();
    remote
        .client()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(reader)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", reader)
                .addNewSubject()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("User")
                .withName(identity)
                .endSubject()
                .build())
        .serverSideApply();
    engine.requestReconcile(Kustomization.class, "deployer");
    engine.awaitCondition("deployer", "Healthy", Duration.ofSeconds(60), EngineTestBase::isTrue);

    // The remote takes the grant back: the next revision is refused there, and Ready names who was
    // refused.
    remote
        .client()
        .resources(RoleBinding.class)
        .inNamespace(ns())
        .withName("token-deployer")
        .delete();
    EngineFixture.eventually(Duration.ofSeconds(30))
        .until(
            () ->
                remote
                        .client()
                        .resources(RoleBinding.class)
                        .inNamespace(ns())
                        .withName("token-deployer")
                        .get()
                    == null);
    git.commit(Map.of("deployer/more.yaml", Manifests.configMap("token-refused", "1")));
    engine.requestReconcile(GitRepository.class, "deployer-repo");
    Condition refused =
        engine.awaitCondition(
            "deployer",
            "Ready",
            Duration.ofSeconds(90),
            c -> !isTrue(c) && c.getMessage() != null && c.getMessage().contains(identity));
    assertEquals("False", refused.getStatus());
    assertTrue(refused.getMessage().contains("forbidden"), refused.getMessage());
    assertNull(remote.client().configMaps().inNamespace(ns()).withName("token-refused").get());
    assertNull(engine.client.configMaps().inNamespace(ns()).withName("token-refused").get());
  }

  @Test
  void localFilePathsInTheKubeconfigAreRefused() {
    String files =
        remote
            .kubeconfigText()
            .replaceFirst(
                "(?m)^(\\s+)certificate-authority-data: .*$",
                "$1certificate-authority: /etc/kubernetes/pki/ca.crt");
    kubeconfigSecret("files-kubeconfig", files);
    git.commit(Map.of("files/settings.yaml", Manifests.configMap("files-settings", "1")));
    engine.gitRepository("files-repo", git.url());
    engine.kustomization(
        "files", "files-repo", "./files", "  kubeConfig: {secretRef: {name: files-kubeconfig}}");

    Condition refused =
        engine.awaitCondition(
            "files",
            "Ready",
            Duration.ofSeconds(60),
            c -> "ReconciliationFailed".equals(c.getReason()));
    assertTrue(
        refused.getMessage().contains("uses 'certificate-authority', which is not allowed"),
        refused.getMessage());
    assertFalse(refused.getMessage().contains("/etc/kubernetes"), refused.getMessage());
    assertNull(remote.client().configMaps().inNamespace(ns()).withName("files-settings").get());
  }
}
