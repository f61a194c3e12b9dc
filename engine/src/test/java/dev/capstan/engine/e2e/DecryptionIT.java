package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.common.Polling;
import dev.capstan.applier.diff.DiffReport;
import dev.capstan.applier.diff.ObjectDiff;
import dev.capstan.decryption.DecryptionKeys;
import dev.capstan.decryption.SopsDecryptor;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * spec.decryption as a Flux user sees it: Secrets and a secretGenerator env file encrypted by the
 * real sops (fixtures under decryption/src/test/resources/sops) are applied decrypted; a tampered
 * revision is refused whole with DecryptionFailed and the last good objects stay. No decrypted
 * value and no key reaches the engine's log (captured at DEBUG), a status, an event or the diff of
 * the decrypted Secrets.
 */
class DecryptionIT extends EngineTestBase {
  private static final List<String> LOGGERS =
      List.of("dev.capstan", "io.javaoperatorsdk", "io.fabric8");
  private static final ListAppender<ILoggingEvent> LOG = new ListAppender<>();
  private static final Map<String, Level> LEVELS = new LinkedHashMap<>();

  @BeforeAll
  static void captureLog() {
    LOG.start();
    for (String name : LOGGERS) {
      Logger logger = (Logger) LoggerFactory.getLogger(name);
      LEVELS.put(name, logger.getLevel());
      logger.setLevel(Level.DEBUG);
      logger.addAppender(LOG);
    }
  }

  @AfterAll
  static void releaseLog() {
    for (String name : LOGGERS) {
      Logger logger = (Logger) LoggerFactory.getLogger(name);
      logger.detachAppender(LOG);
      logger.setLevel(LEVELS.get(name));
    }
  }

  private static final Path FIXTURES = Path.of("../decryption/src/test/resources/sops");
  private static final String KUSTOMIZATION =
      """
      resources: [secret.yaml]
      secretGenerator:
      - name: app-env
        envs: [app.env]
        options: {disableNameSuffixHash: true}
      """;

  private static String fixture(String path) {
    try {
      return Files.readString(FIXTURES.resolve(path), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void keySecret(String name, String entry, String keyFile) {
    engine
        .client
        .secrets()
        .inNamespace(ns())
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withStringData(Map.of(entry, fixture("keys/" + keyFile)))
                .build())
        .create();
  }

  private static String value(String secret, String key) {
    Secret s = engine.client.secrets().inNamespace(ns()).withName(secret).get();
    return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
  }

  @Test
  void encryptedSecretsAreAppliedDecryptedAndATamperedRevisionIsRefused() {
    String good =
        git.commit(
            Map.of(
                "app/kustomization.yaml", KUSTOMIZATION,
                "app/secret.yaml", fixture("encrypted/secret.age.yaml"),
                "app/app.env", fixture("encrypted/app.env")));
    keySecret("sops-keys", "identity.agekey", "test-only.agekey");
    engine.gitRepository("repo", git.url());
    engine.kustomization(
        "app",
        "repo",
        "./app",
        """
          commonMetadata: {labels: {team: payments}}
          decryption:
            provider: sops
            secretRef: {name: sops-keys}
        """);

    engine.awaitCondition("app", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    assertEquals("plaintext-db-password-42", value("db-credentials", "password"));
    assertEquals("plaintext-token-value", value("db-credentials", "token"));
    assertEquals("plaintext-env-password", value("app-env", "DB_PASSWORD"));
    assertEquals("line1\\nline2", value("app-env", "MULTI")); // kustomize keeps the escape
    Secret applied = engine.client.secrets().inNamespace(ns()).withName("db-credentials").get();
    assertNull(applied.getAdditionalProperties().get("sops"));
    assertEquals("payments", applied.getMetadata().getLabels().get("team"));
    assertDiffMasksDecryptedValues();

    String text = fixture("encrypted/secret.age.yaml");
    String replacement = text.contains("mac: ENC[AES256_GCM,data:A") ? "B" : "A";
    git.commit(
        Map.of(
            "app/secret.yaml",
            text.replaceFirst(
                    "mac: ENC\\[AES256_GCM,data:.", "mac: ENC[AES256_GCM,data:" + replacement)
                .replace("name: db-credentials", "name: db-credentials-renamed")));
    engine.requestReconcile(GitRepository.class, "repo");
    var failed =
        engine.awaitCondition(
            "app", "Ready", Duration.ofSeconds(90), c -> "DecryptionFailed".equals(c.getReason()));
    assertTrue(failed.getMessage().contains("app/secret.yaml"), failed.getMessage());
    assertTrue(failed.getMessage().contains("MAC"), failed.getMessage());
    assertEquals(good, engine.kustomization("app").getStatus().lastAppliedRevision());
    assertNull(
        engine.client.secrets().inNamespace(ns()).withName("db-credentials-renamed").get(),
        "nothing of the refused revision is applied");
    assertEquals("plaintext-db-password-42", value("db-credentials", "password"));
    assertNoPlaintextOutside();
  }

  @Test
  void anEncryptedSecretWithoutDecryptionOrWithTheWrongKeyIsRefused() {
    git.commit(
        Map.of(
            "plain/secret.yaml",
            fixture("encrypted/secret.age.yaml"),
            "wrong/secret.yaml",
            fixture("encrypted/secret.pgp.yaml")));
    keySecret("other-keys", "other.agekey", "test-only-unrelated.agekey");
    engine.gitRepository("repo-refused", git.url());
    engine.kustomization("no-decryption", "repo-refused", "./plain", "");
    engine.kustomization(
        "wrong-key",
        "repo-refused",
        "./wrong",
        """
          retryInterval: 2s
          decryption: {provider: sops, secretRef: {name: other-keys}}
        """);
    engine.kustomization(
        "no-secret",
        "repo-refused",
        "./wrong",
        """
          retryInterval: 2s
          decryption: {provider: sops, secretRef: {name: not-there}}
        """);

    var plain =
        engine.awaitCondition(
            "no-decryption",
            "Ready",
            Duration.ofSeconds(90),
            c -> "DecryptionFailed".equals(c.getReason()));
    assertEquals(
        "Secret/db-credentials is SOPS-encrypted and spec.decryption is not set: it cannot be"
            + " applied",
        plain.getMessage());
    var wrong =
        engine.awaitCondition(
            "wrong-key",
            "Ready",
            Duration.ofSeconds(90),
            c -> "DecryptionFailed".equals(c.getReason()));
    assertTrue(wrong.getMessage().contains("Secret/db-credentials"), wrong.getMessage());
    assertTrue(
        wrong.getMessage().contains("no key of the decryption Secret opens the data key"),
        wrong.getMessage());
    var missing =
        engine.awaitCondition(
            "no-secret",
            "Ready",
            Duration.ofSeconds(90),
            c -> "DecryptionFailed".equals(c.getReason()));
    assertEquals("decryption: Secret '" + ns() + "/not-there' not found", missing.getMessage());
    assertNull(engine.client.secrets().inNamespace(ns()).withName("db-credentials").get());
    assertNoPlaintextOutside();
  }

  @Test
  void anApplyErrorQuotingADecryptedInputShowsNoneOfIt() {
    // kustomize reads envs as KEY=value lines and keeps a line without '=' whole as a key: the
    // decrypted YAML lines become keys of the Secret, which the API server refuses, quoting them.
    git.commit(
        Map.of(
            "yaml-env/kustomization.yaml",
            """
            secretGenerator:
            - name: from-yaml
              envs: [values.yaml]
            """,
            "yaml-env/values.yaml",
            fixture("encrypted/values.unencrypted-suffix.yaml")));
    keySecret("yaml-env-keys", "identity.agekey", "test-only.agekey");
    engine.gitRepository("repo-yaml-env", git.url());
    engine.kustomization(
        "yaml-env",
        "repo-yaml-env",
        "./yaml-env",
        """
          decryption: {provider: sops, secretRef: {name: yaml-env-keys}}
        """);
    var failed =
        engine.awaitCondition(
            "yaml-env", "Ready", Duration.ofSeconds(90), c -> "ApplyFailed".equals(c.getReason()));
    assertTrue(
        failed.getMessage().contains("is invalid: [data[***]: Invalid value: \"***\""),
        failed.getMessage());
    assertFalse(failed.getMessage().contains("visible"), failed.getMessage());
    assertNoPlaintextOutside("visible");
  }

  /**
   * A patch in Git that marks a decrypted Secret for a replication controller is refused naming the
   * Secret and the annotation, not its value; the same mark set by the Kustomization's
   * commonMetadata is applied.
   */
  @Test
  void aPatchMarkingADecryptedSecretForReplicationIsRefused() {
    git.commit(
        Map.of(
            "replicated/kustomization.yaml",
            """
            resources: [secret.yaml]
            patches:
            - target: {kind: Secret, name: db-credentials}
              patch: |
                - op: add
                  path: /metadata/annotations
                  value: {replicator.v1.mittwald.de/replicate-to: attacker-namespace}
            """,
            "replicated/secret.yaml",
            fixture("encrypted/secret.age.yaml"),
            "common/kustomization.yaml",
            "resources: [secret.yaml]\n",
            "common/secret.yaml",
            fixture("encrypted/secret.age.yaml")));
    keySecret("replicated-keys", "identity.agekey", "test-only.agekey");
    engine.gitRepository("repo-replicated", git.url());
    String decryption = "  decryption: {provider: sops, secretRef: {name: replicated-keys}}\n";
    engine.kustomization(
        "replicated",
        "repo-replicated",
        "./replicated",
        "  namePrefix: replicated-\n" + decryption);
    var refused =
        engine.awaitCondition(
            "replicated",
            "Ready",
            Duration.ofSeconds(90),
            c -> "DecryptionFailed".equals(c.getReason()));
    assertEquals(
        "decryption failed: Secret/"
            + ns()
            + "/replicated-db-credentials: annotation 'replicator.v1.mittwald.de/replicate-to'"
            + " would have a"
            + " controller copy the decrypted Secret to other namespaces; a decrypted Secret keeps"
            + " such a mark only as its encrypted document declares it under its MAC, or as the"
            + " Kustomization's commonMetadata sets it",
        refused.getMessage());
    assertNull(
        engine.client.secrets().inNamespace(ns()).withName("replicated-db-credentials").get());

    engine.kustomization(
        "common",
        "repo-replicated",
        "./common",
        "  namePrefix: common-\n"
            + "  commonMetadata: {annotations: {kubed.appscode.com/sync: 'team=payments'}}\n"
            + decryption);
    engine.awaitCondition("common", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    Secret applied =
        engine.client.secrets().inNamespace(ns()).withName("common-db-credentials").get();
    assertEquals(
        "team=payments", applied.getMetadata().getAnnotations().get("kubed.appscode.com/sync"));
    assertNoPlaintextOutside("attacker-namespace");
  }

  /**
   * The diff of the decrypted Secrets against what is applied, as {@code capstan diff} renders it
   * (server-side dry run, then DiffRenderer), with a rotated value: keys and "changed" marks, never
   * a value.
   */
  private static void assertDiffMasksDecryptedValues() {
    Map<String, Object> decrypted =
        new SopsDecryptor()
            .decryptObject(
                yamlMap(fixture("encrypted/secret.age.yaml")),
                DecryptionKeys.fromSecretData(
                    Map.of(
                        "identity.agekey",
                        fixture("keys/test-only.agekey").getBytes(StandardCharsets.UTF_8))));
    GenericKubernetesResource secret =
        Serialization.jsonMapper().convertValue(decrypted, GenericKubernetesResource.class);
    secret.getMetadata().setLabels(Map.of("team", "payments"));
    secret
        .getAdditionalProperties()
        .put("stringData", Map.of("password", "plaintext-rotated-password-7"));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      DiffReport report =
          ResourceManager.recent(engine.client, pool, Polling.system())
              .diff(List.of(secret), new Owner("app", ns()), ns());
      ObjectDiff diff = report.objects().get(0);
      assertEquals(ObjectDiff.Change.CHANGED, diff.change(), diff.text());
      assertTrue(
          diff.text().contains("password: '*** (changed)'")
              || diff.text().contains("password: \"*** (changed)\""),
          diff.text());
      assertTrue(
          diff.text().contains("token: '*** (unchanged)'")
              || diff.text().contains("token: \"*** (unchanged)\""),
          diff.text());
      for (String secretText : secretTexts("rotated")) {
        assertFalse(diff.text().contains(secretText), diff.text());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> yamlMap(String yaml) {
    try {
      return new YAMLMapper().readValue(yaml, Map.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What must appear nowhere: the fixtures' plaintext (each holds "plaintext"), their base64, the
   * keys.
   */
  private static List<String> secretTexts(String... more) {
    List<String> texts =
        new ArrayList<>(List.of("plaintext", b64("plaintext-db-password-42"), "cGxhaW50ZXh0"));
    texts.add(
        fixture("keys/test-only.agekey")
            .lines()
            .filter(l -> l.startsWith("AGE-SECRET-KEY"))
            .findFirst()
            .orElseThrow());
    texts.addAll(List.of(more));
    return texts;
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  /** No decrypted value and no key in any status, any event, or anything the engine logged. */
  private static void assertNoPlaintextOutside(String... more) {
    List<String> forbidden = secretTexts(more);
    for (Kustomization ks :
        engine.client.resources(Kustomization.class).inNamespace(ns()).list().getItems()) {
      String status = Serialization.asYaml(ks.getStatus());
      forbidden.forEach(f -> assertFalse(status.contains(f), status));
    }
    for (Event event : engine.client.v1().events().inNamespace(ns()).list().getItems()) {
      String text = event.getReason() + " " + event.getMessage();
      forbidden.forEach(f -> assertFalse(text.contains(f), text));
    }
    assertFalse(LOG.list.isEmpty(), "the engine's log is captured");
    for (ILoggingEvent logged : List.copyOf(LOG.list)) {
      StringBuilder text = new StringBuilder(logged.getFormattedMessage());
      for (IThrowableProxy t = logged.getThrowableProxy(); t != null; t = t.getCause()) {
        text.append(' ').append(t.getMessage());
      }
      forbidden.forEach(f -> assertFalse(text.toString().contains(f), text.toString()));
    }
  }
}
