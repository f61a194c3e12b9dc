package dev.capstan.applier.it;

import static dev.capstan.applier.it.ItSupport.objects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.common.Polling;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubernetesCluster.class)
class PruneIT {

  private static final ExecutorService POOL = Executors.newFixedThreadPool(8);
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  private final KubernetesClient admin;
  private final String ns;

  PruneIT(KubernetesClient admin, TestNamespace namespace) {
    this.admin = admin;
    this.ns = namespace.name();
  }

  @AfterAll
  static void stopPool() {
    POOL.shutdownNow();
  }

  private ApplyResult apply(Owner owner, String yaml) {
    ApplyResult result =
        ResourceManager.recent(admin, POOL, Polling.system())
            .apply(
                ApplyRequest.of(objects(yaml), owner)
                    .withDefaultNamespace(ns)
                    .withTimeout(TIMEOUT));
    assertTrue(result.succeeded(), result.objects().toString());
    return result;
  }

  private static String configMaps(String... names) {
    return Arrays.stream(names)
        .map(n -> "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + n + "}\ndata: {k: v}\n")
        .collect(Collectors.joining("---\n"));
  }

  private static Map<String, ObjectResult> byName(List<ObjectResult> results) {
    return results.stream().collect(Collectors.toMap(r -> r.ref().name(), r -> r));
  }

  @Test
  void prunesWhatLeftTheRevisionExceptDisabledAndForeignObjects() {
    String s = ItSupport.suffix();
    Owner owner = new Owner("prune-" + s, "flux-system");
    String extraNs = "pruned-ns-" + s;
    ApplyResult first =
        apply(
            owner,
            configMaps("keep", "gone", "disabled", "foreign")
                + "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: "
                + extraNs
                + "}\n"
                + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: inside, namespace: "
                + extraNs
                + "}\n");
    admin
        .configMaps()
        .inNamespace(ns)
        .withName("disabled")
        .edit(
            cm -> {
              cm.getMetadata().getAnnotations().put("capstan.dev/prune", "disabled");
              return cm;
            });
    admin
        .configMaps()
        .inNamespace(ns)
        .withName("foreign")
        .edit(
            cm -> {
              cm.getMetadata().getLabels().put(Owner.NAME_LABEL, "someone-else");
              return cm;
            });

    ApplyResult second = apply(owner, configMaps("keep"));
    List<ObjectResult> pruned =
        ResourceManager.recent(admin, POOL, Polling.system())
            .prune(first.inventory(), second.inventory(), owner, TIMEOUT);

    Map<String, ObjectResult> results = byName(pruned);
    assertEquals(Action.DELETED, results.get("gone").action());
    assertEquals(Action.DELETED, results.get("inside").action());
    assertEquals(Action.DELETED, results.get(extraNs).action());
    assertEquals(Action.SKIPPED, results.get("disabled").action());
    assertTrue(results.get("disabled").reason().contains("capstan.dev/prune: disabled"));
    assertEquals(Action.SKIPPED, results.get("foreign").action());
    assertTrue(
        results.get("foreign").reason().contains("someone-else"), results.get("foreign").reason());
    assertEquals(5, pruned.size(), pruned.toString());
    assertEquals(extraNs, pruned.get(pruned.size() - 1).ref().name(), "namespaces go last");

    assertNull(admin.configMaps().inNamespace(ns).withName("gone").get());
    assertNull(
        admin.namespaces().withName(extraNs).get(), "the namespace was waited for until gone");
    assertNotNull(admin.configMaps().inNamespace(ns).withName("keep").get());
    assertNotNull(admin.configMaps().inNamespace(ns).withName("disabled").get());
    assertNotNull(admin.configMaps().inNamespace(ns).withName("foreign").get());
  }

  @Test
  void deletingAnInventoryDeletesOnlyWhatTheOwnerStillOwns() {
    String s = ItSupport.suffix();
    Owner owner = new Owner("policy-" + s, "flux-system");
    InventorySet inventory = apply(owner, configMaps("gone-" + s)).inventory();
    Owner other = new Owner("other-" + s, "flux-system");
    InventorySet foreign = apply(other, configMaps("foreign-" + s)).inventory();
    ResourceManager manager = ResourceManager.recent(admin, POOL, Polling.system());

    assertEquals(
        List.of(Action.SKIPPED),
        manager.delete(foreign, owner, TIMEOUT, true).stream().map(ObjectResult::action).toList());
    assertNotNull(admin.configMaps().inNamespace(ns).withName("foreign-" + s).get());

    List<ObjectResult> deleted = manager.delete(inventory, owner, TIMEOUT, true);
    assertEquals(List.of(Action.DELETED), deleted.stream().map(ObjectResult::action).toList());
    assertNull(admin.configMaps().inNamespace(ns).withName("gone-" + s).get());
  }
}
