package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.EngineOptions;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * --sops-age-secret: the age keys of a Secret of the engine's namespace decrypt for every
 * Kustomization with spec.decryption and no secretRef; a secretRef takes precedence, as in Flux.
 */
@ExtendWith(KubernetesCluster.class)
class GlobalAgeKeyIT {
  private static final Path FIXTURES = Path.of("../decryption/src/test/resources/sops");
  private static EngineFixture engine;
  private static GitFixture git;

  @BeforeAll
  static void start(ClusterAccess cluster, TestNamespace namespace, @TempDir Path repo) {
    engine =
        EngineFixture.start(
            EngineFixture.client(cluster.kubeconfig()),
            namespace.name(),
            o ->
                o.withReconciling(
                    new EngineOptions.Reconciling(
                        o.reconciling().featureGates(),
                        o.reconciling().applyPolicy(),
                        Optional.of(new NamespacedName(namespace.name(), "engine-age")),
                        o.reconciling().watchConfigsLabelSelector())));
    git = GitFixture.create(repo);
  }

  @AfterAll
  static void stop() {
    if (engine != null) {
      engine.close();
    }
    if (git != null) {
      git.close();
    }
  }

  private static String fixture(String path) {
    try {
      return Files.readString(FIXTURES.resolve(path), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void keySecret(String name, String keyFile) {
    engine
        .client
        .secrets()
        .inNamespace(engine.namespace)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withStringData(
                    Map.of("identity.agekey", fixture("keys/" + keyFile), "ignored.txt", "x"))
                .build())
        .create();
  }

  @Test
  void aKustomizationWithoutSecretRefDecryptsWithTheEnginesKeyAndOneWithItsOwnDoesNot() {
    git.commit(Map.of("app/secret.yaml", fixture("encrypted/secret.age.yaml")));
    keySecret("engine-age", "test-only.agekey");
    keySecret("unrelated", "test-only-unrelated.agekey");
    engine.gitRepository("repo", git.url());
    engine.kustomization("global", "repo", "./app", "  decryption: {provider: sops}\n");

    engine.awaitCondition("global", "Ready", Duration.ofSeconds(90), c -> isTrue(c));
    Secret applied =
        engine.client.secrets().inNamespace(engine.namespace).withName("db-credentials").get();
    assertEquals(
        "plaintext-db-password-42",
        new String(
            Base64.getDecoder().decode(applied.getData().get("password")), StandardCharsets.UTF_8));

    engine.kustomization(
        "own",
        "repo",
        "./app",
        "  namePrefix: own-\n  retryInterval: 5s\n"
            + "  decryption: {provider: sops, secretRef: {name: unrelated}}\n");
    var refused =
        engine.awaitCondition(
            "own", "Ready", Duration.ofSeconds(90), c -> "DecryptionFailed".equals(c.getReason()));
    assertTrue(
        refused.getMessage().contains("no key of the decryption Secret opens the data key"),
        refused.getMessage());
  }

  private static boolean isTrue(Condition c) {
    return "True".equals(c.getStatus());
  }
}
