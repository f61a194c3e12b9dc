package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.Bucket;
import dev.capstan.testing.S3Server;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Buckets against a real S3-compatible server started here (gofakes3 behind a Signature Version 4
 * check), with the fields of Flux's own Bucket example (an insecure endpoint, a secretRef of
 * accesskey and secretkey). What a user checks is the status: Ready with the revision of the object
 * index, the same revision and artifact while the bucket is unchanged (each check one listing), a
 * new revision for a new object, a Kustomization applying the Bucket's manifests, and wrong
 * credentials, a missing bucket and an oversize object each a clear reason with the last good
 * artifact kept and no Secret value anywhere.
 */
class BucketIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static S3Server s3;

  @BeforeAll
  static void startS3(@TempDir Path dir) throws Exception {
    s3 = S3Server.start(dir, false);
    engine.secret(
        "minio-bucket-secret",
        Map.of("accesskey", S3Server.ACCESS_KEY, "secretkey", S3Server.SECRET_KEY));
  }

  @AfterAll
  static void stopS3() throws Exception {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void aBucketIsStoredKeptWhileUnchangedRefetchedWhenChangedAndApplied() throws Exception {
    s3.createBucket("example");
    s3.putObject("example", "kustomization.yaml", "resources: [first.yaml]\n");
    s3.putObject("example", "first.yaml", configMap("from-bucket-1"));
    s3.putObject("example", ".sourceignore", "docs/\n");
    s3.putObject("example", "docs/readme.yaml", "not: a manifest\n");
    bucket("minio-bucket", "example", "  interval: 2s\n");

    Condition ready = awaitCondition("minio-bucket", "Ready", EngineTestBase::isTrue);
    assertEquals("Succeeded", ready.getReason());
    Artifact first = bucket("minio-bucket").getStatus().artifact();
    assertTrue(first.revision().matches("sha256:[0-9a-f]{64}"), first.revision());
    assertTrue(Files.isRegularFile(Path.of(first.path(), "first.yaml")));
    assertFalse(Files.exists(Path.of(first.path(), "docs")));

    // Checked again at the interval: one listing each time, nothing downloaded, nothing stored.
    int before = s3.requests().size();
    EngineFixture.eventually(WAIT).until(() -> s3.requests().size() >= before + 2);
    List<String> all = s3.requests();
    List<String> checks = all.subList(before, all.size());
    assertTrue(
        checks.stream().allMatch(r -> r.startsWith("GET /example?list-type=2 200")),
        checks.toString());
    assertEquals(first, bucket("minio-bucket").getStatus().artifact());

    kustomizationOf("from-bucket", "minio-bucket");
    engine.awaitCondition("from-bucket", "Ready", WAIT, EngineTestBase::isTrue);
    assertEquals(
        first.revision(), engine.kustomization("from-bucket").getStatus().lastAppliedRevision());
    assertTrue(configMapExists("from-bucket-1"));

    s3.putObject("example", "second.yaml", configMap("from-bucket-2"));
    s3.putObject("example", "kustomization.yaml", "resources: [first.yaml, second.yaml]\n");
    EngineFixture.eventually(WAIT)
        .until(
            () ->
                !first.revision().equals(bucket("minio-bucket").getStatus().artifact().revision()));
    Artifact second = bucket("minio-bucket").getStatus().artifact();
    assertNotEquals(first.digest(), second.digest());
    EngineFixture.eventually(WAIT).until(() -> configMapExists("from-bucket-2"));
  }

  @Test
  void wrongCredentialsAMissingBucketAndAnOversizeObjectAreNamedAndKeepTheLastArtifact()
      throws Exception {
    s3.createBucket("kept");
    s3.putObject("kept", "app.yaml", configMap("kept"));
    engine.secret(
        "wrong-secret", Map.of("accesskey", S3Server.ACCESS_KEY, "secretkey", "wr0ng-k3y"));
    bucket("refused", "kept", "  interval: 1m\n", "wrong-secret");
    bucket("missing", "no-such-bucket", "  interval: 1m\n");
    bucket("oversize", "kept", "  interval: 2s\n");
    bucket("cloud", "kept", "  interval: 1m\n  provider: aws\n");

    Condition refused = awaitCondition("refused", "Ready", EngineTestBase::isFalse);
    assertEquals("AuthenticationFailed", refused.getReason());
    assertTrue(refused.getMessage().contains("SignatureDoesNotMatch"), refused.getMessage());
    assertNull(bucket("refused").getStatus().artifact());
    String status = engine.client.getKubernetesSerialization().asYaml(bucket("refused"));
    assertFalse(status.contains("wr0ng-k3y"), status);
    assertFalse(status.contains(S3Server.SECRET_KEY), status);

    Condition missing = awaitCondition("missing", "Ready", EngineTestBase::isFalse);
    assertEquals("BucketOperationFailed", missing.getReason());
    assertTrue(
        missing.getMessage().contains("bucket 'no-such-bucket' does not exist"),
        missing.getMessage());

    awaitCondition("oversize", "Ready", EngineTestBase::isTrue);
    Artifact good = bucket("oversize").getStatus().artifact();
    // Past the bound of one object (100 MiB): refused from the listing, before any download.
    s3.putObject("kept", "huge.bin", new byte[(100 << 20) + 1]);
    Condition tooLarge = awaitCondition("oversize", "Ready", EngineTestBase::isFalse);
    assertEquals("SizeLimitExceeded", tooLarge.getReason());
    assertTrue(tooLarge.getMessage().contains("object 'huge.bin'"), tooLarge.getMessage());
    assertEquals(good, bucket("oversize").getStatus().artifact());
    assertTrue(Files.isRegularFile(Path.of(good.path(), "app.yaml")));
    assertTrue(s3.requests().stream().noneMatch(r -> r.contains("huge.bin")));

    Condition stalled = awaitCondition("cloud", "Stalled", EngineTestBase::isTrue);
    assertEquals("InvalidSpec", stalled.getReason());
    assertTrue(stalled.getMessage().contains("spec.provider 'aws' is not supported"));
  }

  private static String configMap(String name) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + "}\ndata: {a: b}\n";
  }

  private static boolean configMapExists(String name) {
    return client().configMaps().inNamespace(ns()).withName(name).get() != null;
  }

  private static KubernetesClient client() {
    return engine.client;
  }

  private static void bucket(String name, String bucketName, String extraSpec) {
    bucket(name, bucketName, extraSpec, "minio-bucket-secret");
  }

  /** A Bucket with the fields of Flux's example, pointed at the test's server. */
  private static void bucket(String name, String bucketName, String extraSpec, String secret) {
    create(
        Bucket.class,
        """
        apiVersion: source.capstan.dev/v1
        kind: Bucket
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec:
          endpoint: %s
          insecure: true
          secretRef:
            name: %s
          bucketName: %s
        %s
        """
            .formatted(
                name,
                ns(),
                EngineFixture.SHARD_LABEL,
                engine.shard,
                s3.endpoint(),
                secret,
                bucketName,
                extraSpec.stripTrailing()));
  }

  private static void kustomizationOf(String name, String bucket) {
    create(
        Kustomization.class,
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec:
          sourceRef: {kind: Bucket, name: %s}
          path: ./
          interval: 10m
          prune: true
          targetNamespace: %s
        """
            .formatted(name, ns(), EngineFixture.SHARD_LABEL, engine.shard, bucket, ns()));
  }

  private static <T extends HasMetadata> void create(Class<T> type, String yaml) {
    T object =
        client()
            .resources(type)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item();
    client().resource(object).create();
  }

  private static Bucket bucket(String name) {
    return client().resources(Bucket.class).inNamespace(ns()).withName(name).get();
  }

  private static Condition awaitCondition(String name, String type, Predicate<Condition> test) {
    return engine.awaitSourceCondition(Bucket.class, name, type, WAIT, test);
  }
}
