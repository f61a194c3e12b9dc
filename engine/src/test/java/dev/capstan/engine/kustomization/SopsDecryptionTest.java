package dev.capstan.engine.kustomization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.decryption.DecryptedInputs;
import dev.capstan.decryption.DecryptionKeys;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.decryption.SecretPlacement;
import dev.capstan.decryption.SopsWriter;
import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.conditions.Reason;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decryption stage around the build: what it passes, decrypts, refuses and lets be shown. */
class SopsDecryptionTest {
  private static final Path FIXTURES = Path.of("../decryption/src/test/resources/sops");
  @TempDir Path artifact;

  private static byte[] fixture(String path) throws IOException {
    return Files.readAllBytes(FIXTURES.resolve(path));
  }

  private static GenericKubernetesResource object(byte[] yaml) {
    return Serialization.unmarshal(
        new String(yaml, StandardCharsets.UTF_8), GenericKubernetesResource.class);
  }

  /** Decrypted values may go to namespace "apps" (the Kustomization's) and "team" (target). */
  private static final SecretPlacement PLACEMENT = SecretPlacement.of("apps", "team");

  private static SopsDecryption withAgeKey() throws IOException {
    return SopsDecryption.withKeys(
        Optional.of(
            DecryptionKeys.fromSecretData(
                Map.of("identity.agekey", fixture("keys/test-only.agekey")))),
        PLACEMENT);
  }

  private static SopsDecryption withoutDecryption() {
    return SopsDecryption.withKeys(Optional.empty(), PLACEMENT);
  }

  /** The committed encrypted Secret as a build that patched its kind and namespace gives it. */
  private static GenericKubernetesResource built(String kind, String namespace) throws IOException {
    GenericKubernetesResource object = object(fixture("encrypted/secret.age.yaml"));
    object.setKind(kind);
    object.getMetadata().setNamespace(namespace);
    return object;
  }

  private static StageFailure refused(ThrowingCall call) {
    StageFailure f = assertThrows(StageFailure.class, call::run);
    Phase.Failed failed = (Phase.Failed) f.phase();
    assertEquals(Reason.DECRYPTION_FAILED, failed.reason());
    assertTrue(failed.terminal(), f.getMessage());
    assertFalse(f.getMessage().contains("plaintext"), f.getMessage());
    return f;
  }

  interface ThrowingCall {
    void run() throws Exception;
  }

  @Test
  void objectsWithoutSopsAreUntouched() throws IOException {
    GenericKubernetesResource plain = object(fixture("plain/secret.yaml"));
    GenericKubernetesResource config =
        object(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"
                .getBytes(StandardCharsets.UTF_8));
    for (SopsDecryption decrypting : List.of(withAgeKey(), withoutDecryption())) {
      SopsDecryption.Decrypted decrypted =
          decrypting.objects(
              artifact, List.of(plain, config), DecryptedInputs.NONE, Plaintexts.NONE);
      List<GenericKubernetesResource> out = decrypted.objects();
      assertTrue(decrypted.plaintexts().isEmpty());
      assertSame(plain, out.get(0));
      assertSame(config, out.get(1));
    }
  }

  @Test
  void anEncryptedObjectIsDecryptedWithKeys() throws IOException {
    Files.write(artifact.resolve("secret.yaml"), fixture("encrypted/secret.age.yaml"));
    SopsDecryption.Decrypted decrypted =
        withAgeKey()
            .objects(
                artifact,
                List.of(object(fixture("encrypted/secret.age.yaml"))),
                DecryptedInputs.NONE,
                Plaintexts.NONE);
    GenericKubernetesResource out = decrypted.objects().get(0);
    assertNull(out.getAdditionalProperties().get("sops"));
    assertEquals(
        Map.of("password", "plaintext-db-password-42"),
        out.getAdditionalProperties().get("stringData"));
    // What was decrypted is known, to be kept out of messages; what was plain is not.
    assertEquals(
        "Secret data[***] refused; type Opaque",
        decrypted
            .plaintexts()
            .redact("Secret data[plaintext-db-password-42] refused; type Opaque"));
  }

  @Test
  void anEncryptedObjectWithoutDecryptionIsRefusedAsFluxRefusesIt() throws IOException {
    StageFailure f =
        assertThrows(
            StageFailure.class,
            () ->
                withoutDecryption()
                    .objects(
                        artifact,
                        List.of(object(fixture("encrypted/secret.age.yaml"))),
                        DecryptedInputs.NONE,
                        Plaintexts.NONE));
    Phase.Failed failed = (Phase.Failed) f.phase();
    assertEquals(Reason.DECRYPTION_FAILED, failed.reason());
    assertEquals(
        "Secret/db-credentials is SOPS-encrypted and spec.decryption is not set: it cannot be"
            + " applied",
        f.getMessage());
  }

  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  @Test
  void anEncryptedSecretPatchedIntoAConfigMapIsRefusedNamingIt() throws IOException {
    Files.write(artifact.resolve("secret.yaml"), fixture("encrypted/secret.age.yaml"));
    StageFailure f =
        refused(
            () ->
                withAgeKey()
                    .objects(
                        artifact,
                        List.of(built("ConfigMap", "other")),
                        DecryptedInputs.NONE,
                        Plaintexts.NONE));
    assertEquals(
        "decryption failed: ConfigMap/other/db-credentials: decrypted values are applied only in"
            + " a Secret (apiVersion v1), not in ConfigMap (v1)",
        f.getMessage());
  }

  @Test
  void anEncryptedSecretMovedToAnotherNamespaceIsRefusedNamingIt() throws IOException {
    Files.write(artifact.resolve("secret.yaml"), fixture("encrypted/secret.age.yaml"));
    StageFailure f =
        refused(
            () ->
                withAgeKey()
                    .objects(
                        artifact,
                        List.of(built("Secret", "other")),
                        DecryptedInputs.NONE,
                        Plaintexts.NONE));
    assertEquals(
        "decryption failed: Secret/other/db-credentials: decrypted values are applied only in the"
            + " Kustomization's namespace 'apps' or its targetNamespace 'team', not in namespace"
            + " 'other'",
        f.getMessage());
  }

  @Test
  void anEncryptedSecretMarkedForReplicationByAPatchIsRefusedNamingTheMark() throws IOException {
    Files.write(artifact.resolve("secret.yaml"), fixture("encrypted/secret.age.yaml"));
    GenericKubernetesResource patched = built("Secret", "apps");
    patched
        .getMetadata()
        .setAnnotations(Map.of("reflector.v1.k8s.emberstack.com/reflection-allowed", "true"));
    StageFailure f =
        refused(
            () ->
                withAgeKey()
                    .objects(artifact, List.of(patched), DecryptedInputs.NONE, Plaintexts.NONE));
    assertTrue(
        f.getMessage()
            .startsWith(
                "decryption failed: Secret/apps/db-credentials: annotation"
                    + " 'reflector.v1.k8s.emberstack.com/reflection-allowed' would have a"
                    + " controller copy the decrypted Secret to other namespaces; "),
        f.getMessage());
  }

  @Test
  void anEncryptedSecretLandsInTheKustomizationsNamespacesOrWhereItsAuthorPutIt()
      throws IOException {
    Files.write(artifact.resolve("secret.yaml"), fixture("encrypted/secret.age.yaml"));
    for (String namespace : new String[] {null, "apps", "team"}) {
      List<GenericKubernetesResource> out =
          withAgeKey()
              .objects(
                  artifact,
                  List.of(built("Secret", namespace)),
                  DecryptedInputs.NONE,
                  Plaintexts.NONE)
              .objects();
      assertEquals(
          Map.of("password", "plaintext-db-password-42"),
          out.get(0).getAdditionalProperties().get("stringData"));
    }
  }

  @Test
  void anEncryptedSecretLandsInTheNamespaceItsCommittedDocumentNamesUnderTheMac()
      throws IOException {
    SopsWriter writer = new SopsWriter();
    Map<String, Object> secret =
        new YAMLMapper().readValue(fixture("plain/secret.payments.yaml"), MAP);
    Predicate<List<String>> stringData = path -> path.get(0).equals("stringData");
    byte[] covered = writer.yaml(secret, Map.of("encrypted_regex", "^stringData$"), stringData);
    Files.write(artifact.resolve("payments.yaml"), covered);
    SopsDecryption decrypting = SopsDecryption.withKeys(Optional.of(writer.keys()), PLACEMENT);
    GenericKubernetesResource out =
        decrypting
            .objects(artifact, List.of(object(covered)), DecryptedInputs.NONE, Plaintexts.NONE)
            .objects()
            .get(0);
    assertEquals("payments", out.getMetadata().getNamespace());
    // With mac_only_encrypted the MAC does not cover the namespace: only the Kustomization's.
    byte[] uncovered =
        writer.yaml(
            secret,
            Map.of("encrypted_regex", "^stringData$", "mac_only_encrypted", true),
            stringData);
    Files.write(artifact.resolve("uncovered.yaml"), uncovered);
    StageFailure f =
        refused(
            () ->
                SopsDecryption.withKeys(Optional.of(writer.keys()), PLACEMENT)
                    .objects(
                        artifact,
                        List.of(object(uncovered)),
                        DecryptedInputs.NONE,
                        Plaintexts.NONE));
    assertTrue(
        f.getMessage().startsWith("decryption failed: Secret/payments/payments-credentials: "),
        f.getMessage());
  }

  @Test
  void aGeneratedSecretTurnedIntoAConfigMapOrMovedIsRefused() throws IOException {
    DecryptedInputs inputs =
        new DecryptedInputs(
            Map.of(
                "app/app.env",
                "DB_PASSWORD=plaintext-env-password\n".getBytes(StandardCharsets.UTF_8)));
    String encoded =
        Base64.getEncoder()
            .encodeToString("plaintext-env-password".getBytes(StandardCharsets.UTF_8));
    GenericKubernetesResource patched =
        object(
            ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app-env}\ndata: {DB_PASSWORD: "
                    + encoded
                    + "}\n")
                .getBytes(StandardCharsets.UTF_8));
    StageFailure f =
        refused(
            () -> withAgeKey().objects(artifact, List.of(patched), inputs, Plaintexts.of(inputs)));
    assertEquals(
        "decryption failed: ConfigMap/team/app-env: decrypted values are applied only in a Secret"
            + " (apiVersion v1), not in ConfigMap (v1)",
        f.getMessage());
    GenericKubernetesResource moved =
        object(
            ("apiVersion: v1\nkind: Secret\nmetadata: {name: app-env, namespace: other}\n"
                    + "data: {DB_PASSWORD: "
                    + encoded
                    + "}\n")
                .getBytes(StandardCharsets.UTF_8));
    assertTrue(
        refused(() -> withAgeKey().objects(artifact, List.of(moved), inputs, Plaintexts.of(inputs)))
            .getMessage()
            .startsWith("decryption failed: Secret/other/app-env: "));
    moved.getMetadata().setNamespace("apps");
    assertSame(
        moved,
        withAgeKey()
            .objects(artifact, List.of(moved), inputs, Plaintexts.of(inputs))
            .objects()
            .get(0));
  }

  @Test
  void anUnreachableApiServerIsARetriedFailureNamingTheSecret() throws IOException {
    KustomizationSpec spec =
        Serialization.unmarshal(
                new String(fixture("kustomizations/with-decryption.yaml"), StandardCharsets.UTF_8),
                Kustomization.class)
            .getSpec();
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Config config =
        new ConfigBuilder()
            .withMasterUrl("https://127.0.0.1:" + closedPort)
            .withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(2_000)
            .withRequestTimeout(2_000)
            .build();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      StageFailure f =
          assertThrows(StageFailure.class, () -> SopsDecryption.of(spec, "apps", client));
      Phase.Failed failed = (Phase.Failed) f.phase();
      assertEquals(Reason.DECRYPTION_FAILED, failed.reason());
      assertFalse(failed.terminal(), "retried: the API server may come back");
      assertEquals(
          "decryption: cannot read Secret 'apps/sops-keys': the API server could not be reached",
          f.getMessage());
    }
  }
}
