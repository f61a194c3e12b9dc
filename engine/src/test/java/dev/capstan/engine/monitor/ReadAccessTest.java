package dev.capstan.engine.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.HealthTracking.ServiceAccount;
import dev.capstan.testing.MutableClock;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReadAccessTest {
  private static final Duration LIFETIME = Duration.ofMinutes(5);
  // The decider below never uses the client: no API server is involved.
  private static final ServiceAccount DEPLOYER =
      new ServiceAccount(new NamespacedName("team-a", "deployer"), () -> null);
  private static final ServiceAccount OTHER =
      new ServiceAccount(new NamespacedName("team-b", "deployer"), () -> null);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final List<ReadAccess.Question> asked = new ArrayList<>();
  private Set<ReadAccess.Question> allowed =
      Set.of(new ReadAccess.Question("", DEPLOYER.name(), "apps", "deployments", "team-a"));

  private final ReadAccess access =
      new ReadAccess(
          (question, client) -> {
            asked.add(question);
            return allowed.contains(question);
          },
          clock,
          LIFETIME);

  @Test
  void whatTheAccountMayGetIsAllowed() {
    ReadAccess.Decision decision = access.mayGet("", DEPLOYER, "apps", "deployments", "team-a");

    assertTrue(decision.allowed());
    assertEquals(ReadAccess.Verdict.ALLOWED, decision.verdict());
  }

  @Test
  void whatTheAccountMayNotGetIsDeniedNamingTheAccountTheResourceAndTheScope() {
    ReadAccess.Decision namespaced = access.mayGet("", DEPLOYER, "apps", "deployments", "team-b");
    ReadAccess.Decision core = access.mayGet("", DEPLOYER, "", "secrets", "team-a");
    ReadAccess.Decision cluster =
        access.mayGet("", DEPLOYER, "rbac.authorization.k8s.io", "clusterroles", "");

    assertEquals(ReadAccess.Verdict.DENIED, namespaced.verdict());
    assertEquals(
        "system:serviceaccount:team-a:deployer may not get deployments.apps in namespace team-b",
        namespaced.message());
    assertEquals(
        "system:serviceaccount:team-a:deployer may not get secrets in namespace team-a",
        core.message());
    assertEquals(
        "system:serviceaccount:team-a:deployer may not get clusterroles.rbac.authorization.k8s.io"
            + " at cluster scope",
        cluster.message());
  }

  @Test
  void anAnswerIsUsedForItsLifetimeThenAskedAgain() {
    access.mayGet("", DEPLOYER, "apps", "deployments", "team-a");
    clock.advance(LIFETIME.minusSeconds(1));
    assertTrue(access.mayGet("", DEPLOYER, "apps", "deployments", "team-a").allowed());
    assertEquals(1, asked.size(), "asked once within the lifetime");

    allowed = Set.of(); // the right to get deployments is taken away
    clock.advance(Duration.ofSeconds(1));
    ReadAccess.Decision after = access.mayGet("", DEPLOYER, "apps", "deployments", "team-a");

    assertEquals(2, asked.size());
    assertFalse(after.allowed());
  }

  @Test
  void answersAreKeptPerClusterAccountGroupResourceAndNamespace() {
    access.mayGet("", DEPLOYER, "apps", "deployments", "team-a");
    access.mayGet("team-a/remote#1", DEPLOYER, "apps", "deployments", "team-a");
    access.mayGet("", OTHER, "apps", "deployments", "team-a");
    access.mayGet("", DEPLOYER, "apps", "statefulsets", "team-a");
    access.mayGet("", DEPLOYER, "extensions", "deployments", "team-a");
    access.mayGet("", DEPLOYER, "apps", "deployments", "team-b");
    access.mayGet("", DEPLOYER, "apps", "deployments", "team-a");

    assertEquals(6, asked.size());
    assertTrue(access.mayGet("", DEPLOYER, "apps", "deployments", "team-a").allowed());
    assertFalse(access.mayGet("", OTHER, "apps", "deployments", "team-a").allowed());
  }

  @Test
  void aFailedCheckIsUncheckedNotDeniedAndAskedAgainNextTime() {
    List<Integer> calls = new ArrayList<>();
    ReadAccess failing =
        new ReadAccess(
            (question, client) -> {
              calls.add(1);
              throw new KubernetesClientException("connection refused");
            },
            clock,
            LIFETIME);

    ReadAccess.Decision decision = failing.mayGet("", DEPLOYER, "", "configmaps", "team-a");
    failing.mayGet("", DEPLOYER, "", "configmaps", "team-a");

    assertEquals(ReadAccess.Verdict.UNCHECKED, decision.verdict());
    assertFalse(decision.allowed());
    assertEquals(
        "cannot check whether system:serviceaccount:team-a:deployer may get configmaps"
            + " in namespace team-a: connection refused",
        decision.message());
    assertEquals(2, calls.size());
  }

  @Test
  void expiredAnswersAreForgotten() {
    access.mayGet("", DEPLOYER, "apps", "deployments", "team-a");
    access.mayGet("", DEPLOYER, "apps", "deployments", "team-b");
    assertEquals(2, access.remembered());

    clock.advance(LIFETIME);
    access.mayGet("", OTHER, "", "configmaps", "team-b");

    assertEquals(1, access.remembered());
  }
}
