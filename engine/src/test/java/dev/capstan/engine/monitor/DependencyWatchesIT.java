package dev.capstan.engine.monitor;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.apply.ResourceType;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.DependencyWatching.Awaited;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Where the engine's own identity may not watch a kind (the multi-tenant install), a Kustomization
 * waiting for an object of it is still woken within seconds: it watches that object as its service
 * account.
 */
@ExtendWith(KubernetesCluster.class)
class DependencyWatchesIT {
  private static final ResourceType CONFIG_MAP =
      new ResourceType("", "v1", "ConfigMap", "configmaps", true);

  @Test
  void aKindTheEngineMayNotWatchIsWatchedObjectByObjectAsTheServiceAccount(
      KubernetesClient admin, TestNamespace ns) {
    String namespace = ns.name();
    for (String account : new String[] {"engine-without-rights", "tenant"}) {
      admin
          .serviceAccounts()
          .inNamespace(namespace)
          .resource(
              new ServiceAccountBuilder().withNewMetadata().withName(account).endMetadata().build())
          .create();
    }
    admin
        .rbac()
        .roles()
        .inNamespace(namespace)
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("read-cm")
                .endMetadata()
                .withRules(
                    new PolicyRuleBuilder()
                        .withApiGroups("")
                        .withResources("configmaps")
                        .withVerbs("get", "list", "watch")
                        .build())
                .build())
        .create();
    admin
        .rbac()
        .roleBindings()
        .inNamespace(namespace)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("tenant-reads-cm")
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "read-cm")
                .withSubjects(
                    new SubjectBuilder()
                        .withKind("ServiceAccount")
                        .withName("tenant")
                        .withNamespace(namespace)
                        .build())
                .build())
        .create();
    admin
        .configMaps()
        .inNamespace(namespace)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("flags")
                .endMetadata()
                .withData(Map.of("ready", "no"))
                .build())
        .create();

    NamespacedName dependent = new NamespacedName(namespace, "app");
    CopyOnWriteArrayList<NamespacedName> woken = new CopyOnWriteArrayList<>();
    try (KubernetesClient engine = as(admin, namespace, "engine-without-rights");
        KubernetesClient tenant = as(admin, namespace, "tenant");
        DependencyWatches watches = new DependencyWatches(engine)) {
      watches.onChange(woken::add);
      watches.await(dependent, Set.of(new Awaited(CONFIG_MAP, namespace, "flags")), tenant);

      await().atMost(Duration.ofSeconds(30)).until(() -> watches.objectWatchCount() == 1);
      assertEquals(Set.of(), watches.watchedKinds(), "the engine's refused informer is gone");
      woken.clear();
      admin
          .configMaps()
          .inNamespace(namespace)
          .withName("flags")
          .edit(
              cm -> {
                cm.setData(Map.of("ready", "yes"));
                return cm;
              });
      await().atMost(Duration.ofSeconds(5)).until(() -> woken.contains(dependent));

      watches.release(dependent);
      assertEquals(0, watches.objectWatchCount());
      woken.clear();
      admin
          .configMaps()
          .inNamespace(namespace)
          .withName("flags")
          .edit(
              cm -> {
                cm.setData(Map.of("ready", "again"));
                return cm;
              });
      assertTrue(
          await()
              .pollDelay(Duration.ofSeconds(2))
              .atMost(Duration.ofSeconds(3))
              .until(woken::isEmpty, empty -> empty),
          "a released dependent is not woken");
    }
  }

  private static KubernetesClient as(KubernetesClient admin, String namespace, String account) {
    return new KubernetesClientBuilder()
        .withConfig(
            new ConfigBuilder(admin.getConfiguration())
                .withImpersonateUsername("system:serviceaccount:" + namespace + ":" + account)
                .withImpersonateGroups()
                .build())
        .build();
  }
}
