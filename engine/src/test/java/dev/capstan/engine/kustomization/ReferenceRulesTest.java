package dev.capstan.engine.kustomization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one rule of what a Kustomization and its GitRepository may name, engine and view alike. */
class ReferenceRulesTest {
  private static final ReferenceRules LOCKED = new ReferenceRules(true);
  private static final ReferenceRules OPEN = new ReferenceRules(false);

  private static Kustomization ks(String sourceNamespace, String dependsOn) {
    return Serialization.unmarshal(
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: app, namespace: team}
        spec:
          sourceRef: {kind: GitRepository, name: repo, namespace: %s}
          path: ./
          interval: 10m
          dependsOn: %s
        """
            .formatted(sourceNamespace, dependsOn),
        Kustomization.class);
  }

  private static Optional<GitRepository> repo(String url) {
    return Optional.of(
        Serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: repo, namespace: team}
            spec: {url: "%s", interval: 10m}
            """
                .formatted(url),
            GitRepository.class));
  }

  @Test
  void aSourceInAnotherNamespaceIsRefusedOnlyUnderTheLockdown() {
    Kustomization across = ks("platform", "[]");

    assertEquals(
        Optional.of(
            "cross-namespace references are not allowed: sourceRef GitRepository"
                + " 'platform/repo' is not in namespace 'team'"),
        LOCKED.refusal(across, Optional.empty()));
    assertEquals(Optional.empty(), OPEN.refusal(across, Optional.empty()));
    assertEquals(Optional.empty(), LOCKED.refusal(ks("team", "[]"), Optional.empty()));
  }

  @Test
  void aDependencyInAnotherNamespaceIsRefusedFirst() {
    Kustomization across = ks("platform", "[{name: infra, namespace: platform}]");

    assertEquals(
        Optional.of(
            "cross-namespace references are not allowed: dependsOn Kustomization"
                + " 'platform/infra' is not in namespace 'team'"),
        LOCKED.refusal(across, Optional.empty()));
    String object =
        LOCKED
            .refusal(
                ks("team", "[{apiVersion: apps/v1, kind: Deployment, name: db, namespace: x}]"),
                Optional.empty())
            .orElseThrow();
    assertTrue(object.contains("dependsOn apps/v1 Deployment 'x/db'"), object);
  }

  @Test
  void aUrlOfAnotherFormIsRefusedWithOrWithoutTheLockdown() {
    String refused = OPEN.refusal(ks("team", "[]"), repo("file:///var/lib/other-tenant")).get();
    assertTrue(refused.contains("scheme 'file' is not allowed here"), refused);
    assertTrue(LOCKED.refusal(ks("team", "[]"), repo("git://host/r.git")).isPresent());
    assertTrue(
        OPEN.refusal(ks("team", "[]"), repo("https://git.example/r.git")).isEmpty(),
        "https is what a GitRepository names");
  }
}
