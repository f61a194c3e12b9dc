package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.serviceAccountName}: the engine applies as the tenant's service account, so what the
 * service account may not write is not written, and the Kustomization says so. The health monitor
 * reports the health only of objects the service account may read.
 */
class ServiceAccountIT extends EngineTestBase {
  private static String other;

  @AfterAll
  static void deleteOtherNamespace() {
    if (other != null) {
      engine.client.namespaces().withName(other).delete();
    }
  }

  @Test
  void aTenantCannotWriteWhereItsServiceAccountMayNot() {
    other = Tenants.namespace(engine.client, "capstan-tenant-other");
    Tenants.configMapTenant(engine.client, ns(), "tenant");
    git.commit(
        Map.of(
            "tenant/own.yaml", Tenants.configMapIn(ns(), "own"),
            "tenant/elsewhere.yaml", Tenants.configMapIn(other, "elsewhere"),
            "allowed/own.yaml", Tenants.configMapIn(ns(), "allowed")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("tenant", "repo", "./tenant", "  serviceAccountName: tenant");
    engine.kustomization("allowed", "repo", "./allowed", "  serviceAccountName: tenant");

    engine.awaitCondition("allowed", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    assertNotNull(engine.client.configMaps().inNamespace(ns()).withName("allowed").get());

    Condition ready =
        engine.awaitCondition(
            "tenant", "Ready", Duration.ofSeconds(60), c -> "ApplyFailed".equals(c.getReason()));
    assertEquals("False", ready.getStatus());
    assertTrue(
        ready.getMessage().contains(other) && ready.getMessage().contains("elsewhere"),
        ready.getMessage());
    assertTrue(ready.getMessage().contains("forbidden"), ready.getMessage());
    assertTrue(
        ready.getMessage().contains("system:serviceaccount:" + ns() + ":tenant"),
        ready.getMessage());
    assertNull(
        engine.client.configMaps().inNamespace(other).withName("elsewhere").get(),
        "the object in the namespace the service account may not write must not exist");
  }

  @Test
  void healthIsNotReportedForWhatTheServiceAccountMayNotGet() {
    Tenants.secretWritingTenant(engine.client, ns(), "writer");
    git.commit(
        Map.of(
            "writer/settings.yaml", Tenants.configMapIn(ns(), "settings"),
            "writer/token.yaml", Tenants.secretIn(ns(), "token")));
    engine.gitRepository("writer-repo", git.url());
    // No wait: the Healthy condition is the health monitor's alone.
    engine.kustomization("writer", "writer-repo", "./writer", "  serviceAccountName: writer");

    engine.awaitCondition("writer", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    assertNotNull(
        engine.client.secrets().inNamespace(ns()).withName("token").get(),
        "the service account may write the Secret");

    String account = "system:serviceaccount:" + ns() + ":writer";
    Condition healthy =
        engine.awaitCondition(
            "writer",
            "Healthy",
            Duration.ofSeconds(30),
            c -> c.getMessage() != null && c.getMessage().contains(account));
    assertEquals("Unknown", healthy.getStatus(), healthy.getMessage());
    assertEquals(
        "Secret/"
            + ns()
            + "/token is Unknown: "
            + account
            + " may not get secrets in namespace "
            + ns()
            + " (AccessDenied)",
        healthy.getMessage());

    // Deleting the Kustomization deletes its objects as its account, which must get each one
    // first (is it still Capstan's?) and may not: the Kustomization stays and says so, as Flux's
    // does, until the user lets the objects go.
    engine.client.resources(Kustomization.class).inNamespace(ns()).withName("writer").delete();
    Condition refused =
        engine.awaitCondition(
            "writer", "Ready", Duration.ofSeconds(60), c -> "PruneFailed".equals(c.getReason()));
    assertTrue(refused.getMessage().contains("Secret/" + ns() + "/token"), refused.getMessage());
    engine
        .client
        .resources(Kustomization.class)
        .inNamespace(ns())
        .withName("writer")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"deletionPolicy\":\"Orphan\"}}");
    EngineFixture.eventually(Duration.ofSeconds(60))
        .until(
            () ->
                engine
                        .client
                        .resources(Kustomization.class)
                        .inNamespace(ns())
                        .withName("writer")
                        .get()
                    == null);
    assertNotNull(
        engine.client.secrets().inNamespace(ns()).withName("token").get(), "left in place");
  }
}
