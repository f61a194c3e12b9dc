package dev.capstan.source.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.core.tls.SecretTls;
import dev.capstan.testing.ForwardProxy;
import dev.capstan.testing.S3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetches from a real S3-compatible server on loopback (gofakes3 behind a Signature Version 4
 * check): stored, listed again without a download, changed, filtered, paginated, refused and
 * bounded.
 */
class BucketSourceTest {
  private static final String KEY = "bucket/apps/podinfo";
  private static S3Server plain;
  private static S3Server tls;
  private static int buckets;

  @TempDir Path storage;
  private ArtifactStore store;
  private BucketSource source;
  private String bucket;

  static {
    // as capstan's main sets it: Basic proxy credentials on an https tunnel's CONNECT
    System.setProperty("jdk.http.auth.tunneling.disabledSchemes", "");
  }

  @BeforeAll
  static void startServers(@TempDir Path dir) throws Exception {
    plain = S3Server.start(dir.resolve("plain"), false);
    tls = S3Server.start(dir.resolve("tls"), true);
  }

  @AfterAll
  static void stopServers() throws Exception {
    plain.close();
    tls.close();
  }

  @BeforeEach
  void newBucket() throws Exception {
    store = new ArtifactStore(storage, Clock.systemUTC());
    source = new BucketSource(store, Clock.systemUTC(), BucketLimits.DEFAULTS);
    bucket = "podinfo-" + ++buckets;
    plain.createBucket(bucket);
    plain.putObject(bucket, "kustomization.yaml", "resources: [deploy.yaml]\n");
    plain.putObject(bucket, "deploy.yaml", "kind: ConfigMap\n");
  }

  @Test
  void anUnchangedBucketIsOneListingAndNothingDownloaded() throws Exception {
    StoredArtifact first =
        assertInstanceOf(FetchResult.Fetched.class, source.fetch(request())).current();
    assertTrue(first.revision().matches("sha256:[0-9a-f]{64}"), first.revision());
    assertEquals("kind: ConfigMap\n", Files.readString(first.path().resolve("deploy.yaml")));
    int before = plain.requests().size();

    FetchResult again = source.fetch(request());
    assertEquals(first, assertInstanceOf(FetchResult.Unchanged.class, again).current());
    List<String> asked = plain.requests().subList(before, plain.requests().size());
    assertEquals(1, asked.size(), asked.toString());
    assertTrue(asked.get(0).startsWith("GET /" + bucket + "?list-type=2 200"), asked.toString());
  }

  @Test
  void aNewObjectIsANewRevision() throws Exception {
    StoredArtifact first = source.fetch(request()).artifact().orElseThrow();
    plain.putObject(bucket, "apps/more.yaml", "kind: Secret\n");
    StoredArtifact second =
        assertInstanceOf(FetchResult.Fetched.class, source.fetch(request())).current();
    assertNotEquals(first.revision(), second.revision());
    assertEquals("kind: Secret\n", Files.readString(second.path().resolve("apps/more.yaml")));
  }

  @Test
  void theSourceIgnoreAndSpecIgnoreLeaveObjectsOut() throws Exception {
    plain.putObject(bucket, ".sourceignore", "*.md\n");
    plain.putObject(bucket, "README.md", "# readme\n");
    plain.putObject(bucket, "tests/case.yaml", "kind: Pod\n");
    StoredArtifact stored = source.fetch(request().withIgnore("tests/\n")).artifact().orElseThrow();
    assertFalse(Files.exists(stored.path().resolve("README.md")));
    assertFalse(Files.exists(stored.path().resolve("tests")));
    assertTrue(Files.exists(stored.path().resolve("deploy.yaml")));
    assertTrue(Files.exists(stored.path().resolve(".sourceignore")));
  }

  @Test
  void thePrefixAndManyPagesAreListed() throws Exception {
    for (int i = 0; i < 1100; i++) {
      plain.putObject(bucket, "many/" + i + ".yaml", "n: " + i + "\n");
    }
    StoredArtifact stored = source.fetch(request().withPrefix("many/")).artifact().orElseThrow();
    try (var files = Files.list(stored.path().resolve("many"))) {
      assertEquals(1100, files.count());
    }
    assertFalse(Files.exists(stored.path().resolve("deploy.yaml")));
  }

  @Test
  void wrongCredentialsFailAndKeepTheLastArtifactWithoutEchoingThem() throws Exception {
    StoredArtifact good = source.fetch(request()).artifact().orElseThrow();
    String wrong = "wrong-secret-value";
    FetchResult.Failed failed =
        assertInstanceOf(
            FetchResult.Failed.class,
            source.fetch(
                request()
                    .withCredentials(
                        Map.of(
                            "accesskey", bytes(S3Server.ACCESS_KEY),
                            "secretkey", bytes(wrong)))));
    assertEquals(FailureReason.AUTHENTICATION_FAILED, failed.reason());
    assertTrue(failed.message().contains("SignatureDoesNotMatch"), failed.message());
    assertFalse(failed.message().contains(wrong));
    assertEquals(good, failed.lastGood().orElseThrow());
  }

  @Test
  void aMissingBucketAndAnIncompleteSecretAreNamed() {
    FetchResult.Failed missing =
        assertInstanceOf(
            FetchResult.Failed.class, source.fetch(request().withBucketName("no-such-bucket")));
    assertEquals(FailureReason.BUCKET_OPERATION_FAILED, missing.reason());
    assertTrue(missing.message().contains("'no-such-bucket' does not exist"), missing.message());
    FetchResult.Failed incomplete =
        assertInstanceOf(
            FetchResult.Failed.class,
            source.fetch(request().withCredentials(Map.of("accesskey", bytes("a")))));
    assertEquals(FailureReason.INVALID_SECRET, incomplete.reason());
  }

  @Test
  void anOversizeObjectFailsBeforeItsDownloadAndKeepsTheLastArtifact() throws Exception {
    StoredArtifact good = source.fetch(request()).artifact().orElseThrow();
    plain.putObject(bucket, "big.bin", new byte[4096]);
    BucketSource bounded =
        new BucketSource(store, Clock.systemUTC(), new BucketLimits(1000, 1024, 1 << 20, 1024, 2));
    FetchResult.Failed failed =
        assertInstanceOf(FetchResult.Failed.class, bounded.fetch(request()));
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, failed.reason());
    assertTrue(failed.message().contains("'big.bin'"), failed.message());
    assertEquals(good, failed.lastGood().orElseThrow());
    assertTrue(plain.requests().stream().noneMatch(r -> r.contains("big.bin")));
  }

  @Test
  void aKeyLeavingTheArtifactIsRefusedByName() throws Exception {
    plain.putObject(bucket, "a/../../escape.yaml", "x");
    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, source.fetch(request()));
    assertEquals(FailureReason.BUCKET_OPERATION_FAILED, failed.reason());
    assertTrue(failed.message().contains("'a/../../escape.yaml'"), failed.message());
  }

  @Test
  void overTlsWithTheCertSecretsAuthority() throws Exception {
    tls.createBucket(bucket);
    tls.putObject(bucket, "deploy.yaml", "kind: ConfigMap\n");
    BucketRequest overTls =
        request()
            .withTarget(request().target().withUrl(tls.endpoint()))
            .withInsecure(false)
            .withCertSecret(Map.of(SecretTls.CA, bytes(tls.ca().certificatePem())));
    StoredArtifact stored =
        assertInstanceOf(FetchResult.Fetched.class, source.fetch(overTls)).current();
    assertTrue(Files.exists(stored.path().resolve("deploy.yaml")));
    FetchResult.Failed untrusted =
        assertInstanceOf(FetchResult.Failed.class, source.fetch(overTls.withCertSecret(Map.of())));
    assertEquals(FailureReason.BUCKET_OPERATION_FAILED, untrusted.reason());
    FetchResult.Failed plainHttp =
        assertInstanceOf(
            FetchResult.Failed.class,
            source.fetch(overTls.withTarget(overTls.target().withUrl("http://" + tls.endpoint()))));
    assertEquals(FailureReason.INVALID_URL, plainHttp.reason());
  }

  @Test
  void throughTheProxyOfTheProxySecretWithItsCredentialsToAnHttpsEndpoint() throws Exception {
    tls.createBucket(bucket);
    tls.putObject(bucket, "deploy.yaml", "kind: ConfigMap\n");
    try (ForwardProxy proxy = ForwardProxy.requiringBasicAuth("proxy-user", "proxy-pass-word")) {
      Map<String, byte[]> secret =
          Map.of(
              "address", bytes(proxy.address()),
              "username", bytes("proxy-user"),
              "password", bytes("proxy-pass-word"));
      BucketRequest overTls =
          request()
              .withTarget(request().target().withUrl(tls.endpoint()))
              .withInsecure(false)
              .withCertSecret(Map.of(SecretTls.CA, bytes(tls.ca().certificatePem())))
              .withProxy(secret);
      FetchResult fetched = source.fetch(overTls);
      StoredArtifact stored =
          assertInstanceOf(FetchResult.Fetched.class, fetched, fetched::toString).current();
      assertTrue(Files.exists(stored.path().resolve("deploy.yaml")));
      assertEquals(
          List.of("CONNECT " + tls.endpoint() + " HTTP/1.1"),
          proxy.requestLines().stream().distinct().toList());
      assertEquals(List.of(), proxy.refusedRequestLines());

      FetchResult.Failed plainHttp =
          assertInstanceOf(FetchResult.Failed.class, source.fetch(request().withProxy(secret)));
      assertEquals(FailureReason.INVALID_SPEC, plainHttp.reason());
      assertFalse(plainHttp.message().contains("proxy-pass-word"));
      FetchResult.Failed noAddress =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(request().withProxy(Map.of("username", bytes("proxy-user")))));
      assertEquals(FailureReason.INVALID_SECRET, noAddress.reason());
    }
  }

  @Test
  void throughAProxyWithoutCredentialsOverPlainHttp() throws Exception {
    try (ForwardProxy proxy = ForwardProxy.start()) {
      FetchResult fetched =
          source.fetch(request().withProxy(Map.of("address", bytes(proxy.address()))));
      assertInstanceOf(FetchResult.Fetched.class, fetched, fetched::toString);
      assertTrue(
          proxy.requestLines().stream()
              .anyMatch(l -> l.startsWith("GET " + plain.url() + "/" + bucket + "?list-type=2")),
          proxy.requestLines().toString());
    }
  }

  private BucketRequest request() {
    return BucketRequest.of(KEY, plain.endpoint(), bucket)
        .withInsecure(true)
        .withCredentials(
            Map.of(
                "accesskey", bytes(S3Server.ACCESS_KEY), "secretkey", bytes(S3Server.SECRET_KEY)));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
