package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.oci.KeylessPolicy.OidcIdentity;
import dev.capstan.source.oci.testing.TestSigstore;
import dev.capstan.source.oci.testing.TestSigstore.Signing;
import dev.capstan.testing.OciRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keyless verification against the real registry, with a Sigstore instance made by the test ({@link
 * TestSigstore}: its own CA, transparency log and CT log, nothing on the network): a signature of
 * the policy's identity verifies; a wrong issuer or subject, a certificate expired when the log
 * integrated the signature, a bundle without its log entry or its signed entry timestamp, a
 * signature of another trusted root, no bundle, and only a signature in cosign's older form are
 * each refused with a reason naming what failed, and nothing is stored: the last good artifact
 * stays.
 */
class KeylessVerificationTest {
  static final String ISSUER = "https://token.actions.example.test";
  static final String SUBJECT =
      "https://git.example.test/org/app/.github/workflows/release.yml@refs/tags/v1";

  @TempDir static Path shared;
  static OciRegistry registry;
  static final TestSigstore SIGSTORE = new TestSigstore();

  @TempDir Path dir;

  @BeforeAll
  static void start() throws Exception {
    registry = OciRegistry.start(shared.resolve("registry"), OciRegistry.Options.plain());
  }

  @AfterAll
  static void stop() throws Exception {
    registry.close();
  }

  @Test
  void aSignatureOfTheIdentityVerifiesAndAnotherIdentityIsRefused() throws Exception {
    OciSource source = source();
    String repo = "org/keyless-" + UUID.randomUUID();
    String v1 = push(repo, "1");
    KeylessSigner.attach(
        registry.host(), repo, v1, SIGSTORE.bundle(v1, Signing.of(ISSUER, SUBJECT)));
    OciFetchRequest request = request(repo, policy(SIGSTORE, ISSUER, "^" + SUBJECT + "$"));

    StoredArtifact good =
        assertInstanceOf(FetchResult.Fetched.class, source.fetch(request)).current();
    String verified = good.verified().orElseThrow().message();
    assertTrue(verified.contains("keyless") && verified.contains(SUBJECT), verified);

    String v2 = push(repo, "2");
    KeylessSigner.attach(
        registry.host(),
        repo,
        v2,
        SIGSTORE.bundle(v2, Signing.of(ISSUER, "https://git.example.test/someone/else")));
    refused(source, request, good, "match no entry of spec.verify.matchOIDCIdentity");

    String v3 = push(repo, "3");
    KeylessSigner.attach(
        registry.host(),
        repo,
        v3,
        SIGSTORE.bundle(v3, Signing.of("https://issuer.elsewhere.test", SUBJECT)));
    refused(source, request, good, "match no entry of spec.verify.matchOIDCIdentity");
  }

  @Test
  void anyOneOfTheIdentitiesMatchesAndNoneMeansAny() throws Exception {
    OciSource source = source();
    String repo = "org/keyless-" + UUID.randomUUID();
    String v1 = push(repo, "1");
    KeylessSigner.attach(
        registry.host(), repo, v1, SIGSTORE.bundle(v1, Signing.of(ISSUER, SUBJECT)));
    KeylessPolicy either =
        KeylessPolicy.of(
            Map.of(KeylessPolicy.TRUSTED_ROOT_KEY, root(SIGSTORE)),
            List.of(
                new OidcIdentity("^https://other\\.test$", ".*"),
                new OidcIdentity("^" + ISSUER + "$", "^https://git\\.example\\.test/org/.*$")));
    assertInstanceOf(FetchResult.Fetched.class, source.fetch(request(repo, either)));

    KeylessPolicy any =
        KeylessPolicy.of(Map.of(KeylessPolicy.TRUSTED_ROOT_KEY, root(SIGSTORE)), List.of());
    assertInstanceOf(FetchResult.Fetched.class, source().fetch(request(repo, any)));
  }

  @Test
  void aCertificateExpiredWhenTheLogIntegratedTheSignatureIsRefused() throws Exception {
    String repo = "org/keyless-" + UUID.randomUUID();
    String v1 = push(repo, "1");
    KeylessSigner.attach(
        registry.host(), repo, v1, SIGSTORE.bundle(v1, Signing.of(ISSUER, SUBJECT).expired()));

    refused(
        source(),
        request(repo, policy(SIGSTORE, ISSUER, SUBJECT)),
        null,
        "was not valid when the transparency log integrated the signature");
  }

  @Test
  void aBundleWithoutItsLogEntryIsRefused() throws Exception {
    String repo = "org/keyless-" + UUID.randomUUID();
    String v1 = push(repo, "1");
    KeylessSigner.attach(
        registry.host(),
        repo,
        v1,
        SIGSTORE.bundle(v1, Signing.of(ISSUER, SUBJECT).withoutLogEntry()));

    refused(
        source(),
        request(repo, policy(SIGSTORE, ISSUER, SUBJECT)),
        null,
        "Could not find any tlog entries");
  }

  @Test
  void aLogEntryWithoutItsSignedEntryTimestampLeavesTheTimeOfSigningUnknown() throws Exception {
    String repo = "org/keyless-" + UUID.randomUUID();
    String v1 = push(repo, "1");
    KeylessSigner.attach(
        registry.host(),
        repo,
        v1,
        SIGSTORE.bundle(v1, Signing.of(ISSUER, SUBJECT).withoutPromise()));

    refused(
        source(),
        request(repo, policy(SIGSTORE, ISSUER, SUBJECT)),
        null,
        // sigstore-java's bundle reader refuses it first; SigstoreVerifier would as well
        "No timestamp verification (set, timestamp) was provided");
  }

  @Test
  void aSignatureOfAnotherTrustedRootIsRefused() throws Exception {
    TestSigstore other = new TestSigstore();
    String repo = "org/keyless-" + UUID.randomUUID();
    String v1 = push(repo, "1");
    KeylessSigner.attach(registry.host(), repo, v1, other.bundle(v1, Signing.of(ISSUER, SUBJECT)));

    refused(
        source(),
        request(repo, policy(SIGSTORE, ISSUER, SUBJECT)),
        null,
        "Certificate was not verifiable against CAs");
  }

  @Test
  void anUnsignedArtifactAndOneSignedOnlyInTheOlderFormAreRefused() throws Exception {
    OciSource source = source();
    String repo = "org/keyless-" + UUID.randomUUID();
    String v1 = push(repo, "1");
    OciFetchRequest request = request(repo, policy(SIGSTORE, ISSUER, SUBJECT));
    refused(source, request, null, "no Sigstore bundle is attached");

    new CosignSigner().sign(registry.host(), repo, v1, null, null, Map.of(), "http");
    refused(source, request, null, "older form");
  }

  @Test
  void aTrustedRootSecretWithoutItsEntryOrNotATrustedRootIsRefused() throws Exception {
    SourceException missing =
        assertThrows(
            SourceException.class,
            () -> KeylessPolicy.of(Map.of("root.json", root(SIGSTORE)), List.of()));
    assertTrue(missing.getMessage().contains("'trusted_root.json' not found"));

    String repo = "org/keyless-" + UUID.randomUUID();
    String v1 = push(repo, "1");
    KeylessSigner.attach(
        registry.host(), repo, v1, SIGSTORE.bundle(v1, Signing.of(ISSUER, SUBJECT)));
    KeylessPolicy notRoot =
        KeylessPolicy.of(
            Map.of(
                KeylessPolicy.TRUSTED_ROOT_KEY, "{\"tlogs\":7}".getBytes(StandardCharsets.UTF_8)),
            List.of());
    refused(source(), request(repo, notRoot), null, "is not a Sigstore trusted root");
  }

  /** The pull fails verification with {@code reason} in its message and stores nothing. */
  private static void refused(
      OciSource source, OciFetchRequest request, StoredArtifact lastGood, String reason) {
    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, source.fetch(request));
    assertEquals(FailureReason.VERIFICATION_FAILED, failed.reason(), failed.message());
    assertTrue(failed.message().contains(reason), failed.message());
    assertEquals(
        Optional.ofNullable(lastGood).map(StoredArtifact::revision),
        failed.lastGood().map(StoredArtifact::revision));
    assertEquals(
        Optional.ofNullable(lastGood).map(StoredArtifact::revision),
        source.lastArtifact(request.target().key()).map(StoredArtifact::revision));
  }

  private static KeylessPolicy policy(TestSigstore sigstore, String issuer, String subject) {
    return KeylessPolicy.of(
        Map.of(KeylessPolicy.TRUSTED_ROOT_KEY, root(sigstore)),
        List.of(new OidcIdentity(issuer, subject)));
  }

  private static byte[] root(TestSigstore sigstore) {
    return sigstore.trustedRootJson().getBytes(StandardCharsets.UTF_8);
  }

  private static OciFetchRequest request(String repo, KeylessPolicy policy) {
    return OciFetchRequest.of("ocirepository/ns/" + repo, registry.url(repo), OciRef.tag("live"))
        .withInsecure(true)
        .withKeyless(policy);
  }

  private OciSource source() throws Exception {
    Path store = Files.createTempDirectory(dir, "store");
    return new OciSource(
        OciSourceOptions.of(new ArtifactStore(store, Clock.systemUTC()), Clock.systemUTC()));
  }

  /** Pushes a one-file artifact tagged {@code live}; returns its manifest digest. */
  private String push(String repo, String content) throws Exception {
    Path tree = Files.createTempDirectory(dir, "tree");
    Files.writeString(tree.resolve("a.yaml"), "a: " + content + "\n");
    return new ArtifactPusher(Clock.systemUTC())
        .push(
            new ArtifactPusher.Push(
                OciUrl.parseTagged(registry.url(repo) + ":live"),
                tree,
                "https://git.example.test/org/app",
                "main@sha1:" + content,
                Instant.EPOCH,
                null,
                Map.of(),
                Optional.empty(),
                true,
                null,
                Instant.now().plusSeconds(60)))
        .digest();
  }
}
