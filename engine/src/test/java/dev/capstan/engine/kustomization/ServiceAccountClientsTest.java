package dev.capstan.engine.kustomization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.testing.MutableClock;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ServiceAccountClientsTest {
  // Never contacted: these tests only look at which client acts and how it is configured.
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private final KubernetesClient engineClient =
      new KubernetesClientBuilder()
          .withConfig(
              new ConfigBuilder()
                  .withMasterUrl("https://127.0.0.1:9")
                  .withOauthToken("engine")
                  .build())
          .build();
  private final Acting engineActing = new Acting(engineClient, null, null, null);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

  @AfterEach
  void closeClient() {
    engineClient.close();
  }

  @Test
  void withoutAServiceAccountTheEngineActs() {
    try (ServiceAccountClients accounts = accounts(Optional.empty())) {
      assertSame(engineActing, accounts.actingFor(kustomization("team-a", null)));
      assertEquals(0, accounts.cachedClients());
    }
  }

  @Test
  void theNamedServiceAccountIsImpersonated() {
    try (ServiceAccountClients accounts = accounts(Optional.of("fallback"))) {
      Acting acting = accounts.actingFor(kustomization("team-a", "deployer"));
      var config = acting.client().getConfiguration();
      assertEquals("system:serviceaccount:team-a:deployer", config.getImpersonateUsername());
      // The API server adds the service account groups; naming them would need rights on groups.
      assertEquals(
          0, config.getImpersonateGroups() == null ? 0 : config.getImpersonateGroups().length);
      assertEquals("https://127.0.0.1:9/", config.getMasterUrl());
      assertSame(
          acting,
          accounts.actingFor(kustomization("team-a", "deployer")),
          "one client per service account");
    }
  }

  @Test
  void theDefaultServiceAccountActsForKustomizationsNamingNone() {
    try (ServiceAccountClients accounts = accounts(Optional.of("fallback"))) {
      Acting acting = accounts.actingFor(kustomization("team-b", null));
      assertEquals(
          "system:serviceaccount:team-b:fallback",
          acting.client().getConfiguration().getImpersonateUsername());
    }
  }

  @Test
  void aClientUnusedForTheIdleTimeIsClosedAndDropped() {
    try (ServiceAccountClients accounts = accounts(Optional.empty())) {
      Acting first = accounts.actingFor(kustomization("team-a", "deployer"));
      clock.advance(Duration.ofMinutes(11));
      accounts.actingFor(kustomization("team-b", "deployer"));
      assertEquals(
          1, accounts.cachedClients(), "team-a's client was idle for longer than 10 minutes");
      assertNotSame(first, accounts.actingFor(kustomization("team-a", "deployer")));
    }
  }

  private ServiceAccountClients accounts(Optional<String> defaultAccount) {
    return new ServiceAccountClients(
        engineActing,
        c -> new Acting(c, null, null, null),
        defaultAccount,
        clock,
        Duration.ofMinutes(10),
        new VertxHttpClientFactory());
  }

  private static Kustomization kustomization(String namespace, String serviceAccount) {
    String yaml =
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: app, namespace: %s}
        spec:
          sourceRef: {kind: GitRepository, name: repo}
          interval: 10m
          prune: true
        %s
        """
            .formatted(
                namespace, serviceAccount == null ? "" : "  serviceAccountName: " + serviceAccount);
    return SERIALIZATION.unmarshal(
        new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), Kustomization.class);
  }
}
