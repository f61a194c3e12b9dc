package dev.capstan.source.git.verify;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.Verified;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.FetchRequest;
import dev.capstan.source.git.GitRef;
import dev.capstan.source.git.GitSource;
import dev.capstan.source.git.GitSourceOptions;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.TestRepo;
import dev.capstan.testing.PgpTestKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec.verify over smart HTTP: commits and tags signed in the test with throwaway keys. */
class SignatureVerificationIT {

  static PgpTestKey trusted;
  static PgpTestKey stranger;

  @TempDir Path tmp;
  TestRepo repo;
  HttpGitServer server;
  GitSource source;

  @BeforeAll
  static void keys() {
    trusted = PgpTestKey.generate("Trusted <trusted@example.invalid>");
    stranger = PgpTestKey.generate("Stranger <stranger@example.invalid>");
  }

  @BeforeEach
  void setUp() throws Exception {
    repo = TestRepo.create(tmp.resolve("served/app"));
    server = HttpGitServer.anonymous(tmp.resolve("served"));
    source =
        new GitSource(
            GitSourceOptions.at(tmp.resolve("store"))
                .withRetry(new RetryPolicy(2, Duration.ofMillis(1), 2.0)));
  }

  @AfterEach
  void tearDown() throws Exception {
    server.close();
    repo.close();
  }

  private FetchRequest request(GitRef ref, Verification.Mode mode) {
    return FetchRequest.of("ns/app", server.url("app"), ref)
        .withVerification(new Verification(mode, Map.of("author.asc", trusted.armoredPublicKey())));
  }

  private static StoredArtifact fetched(FetchResult result) {
    if (result instanceof FetchResult.Failed f) {
      throw new AssertionError("fetch failed: " + f.reason() + ": " + f.message());
    }
    return result.artifact().orElseThrow();
  }

  @Test
  void signedCommitIsStoredAndAnUnsignedOrForeignOneIsNot() throws Exception {
    RevCommit signed = repo.signedCommit("signed", Map.of("cm.yaml", "v: 1\n"), trusted::sign);
    FetchRequest request = request(GitRef.branch("main"), Verification.Mode.HEAD);

    StoredArtifact good = fetched(source.fetch(request));
    assertEquals(signed.name(), good.commitId());
    assertEquals(
        Optional.of(
            new Verified(
                "HEAD",
                "verified signature of commit '"
                    + signed.name()
                    + "' with key '"
                    + trusted.fingerprint()
                    + "'")),
        good.verified());
    assertEquals(
        good.verified(),
        assertInstanceOf(FetchResult.Unchanged.class, source.fetch(request)).current().verified(),
        "an unchanged revision keeps its verification");

    RevCommit unsigned = repo.commit("unsigned", Map.of("cm.yaml", "v: 2\n"));
    FetchResult.Failed notSigned = (FetchResult.Failed) source.fetch(request);
    assertEquals(FailureReason.VERIFICATION_FAILED, notSigned.reason());
    assertEquals("commit '" + unsigned.name() + "' is not signed", notSigned.message());
    assertEquals(Optional.of(good), notSigned.lastGood());
    assertEquals("v: 1\n", Files.readString(good.path().resolve("cm.yaml")));

    RevCommit foreign = repo.signedCommit("foreign", Map.of("cm.yaml", "v: 3\n"), stranger::sign);
    FetchResult.Failed unknown = (FetchResult.Failed) source.fetch(request);
    assertEquals(FailureReason.VERIFICATION_FAILED, unknown.reason());
    assertTrue(
        unknown.message().startsWith("commit '" + foreign.name() + "' is signed with key ")
            && unknown.message().endsWith(", which is not one of the trusted keys"),
        unknown.message());
    assertEquals(Optional.of(good), unknown.lastGood());

    RevCommit next = repo.signedCommit("signed again", Map.of("cm.yaml", "v: 4\n"), trusted::sign);
    assertEquals(next.name(), fetched(source.fetch(request)).commitId());
  }

  @Test
  void aSignatureOverOtherContentDoesNotVerify() throws Exception {
    repo.signedCommit(
        "forged",
        Map.of("cm.yaml", "v: 1\n"),
        payload -> trusted.sign("something else".getBytes(UTF_8)));
    FetchResult.Failed failed =
        (FetchResult.Failed) source.fetch(request(GitRef.branch("main"), Verification.Mode.HEAD));
    assertEquals(FailureReason.VERIFICATION_FAILED, failed.reason());
    assertTrue(
        failed.message().contains("does not match its content")
            && failed.message().contains(trusted.fingerprint()),
        failed.message());
    assertTrue(failed.lastGood().isEmpty());
  }

  @Test
  void anSshSignedCommitNeedsSshKeys() throws Exception {
    RevCommit commit =
        repo.signedCommit(
            "ssh",
            Map.of("cm.yaml", "v: 1\n"),
            payload ->
                "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"
                    .getBytes(UTF_8));
    FetchResult.Failed failed =
        (FetchResult.Failed) source.fetch(request(GitRef.branch("main"), Verification.Mode.HEAD));
    assertEquals(
        "commit '"
            + commit.name()
            + "' is signed with an SSH key, and the verification secret holds no SSH public key"
            + " (entries named *.sshpub)",
        failed.message());
  }

  @Test
  void tagModes() throws Exception {
    RevCommit unsignedCommit = repo.commit("unsigned", Map.of("cm.yaml", "v: 1\n"));
    repo.signedTag("v1.0.0", trusted::sign);

    StoredArtifact tagOnly =
        fetched(source.fetch(request(GitRef.tag("v1.0.0"), Verification.Mode.TAG)));
    assertEquals(
        "verified signature of tag 'v1.0.0' with key '" + trusted.fingerprint() + "'",
        tagOnly.verified().orElseThrow().message());

    FetchResult.Failed both =
        (FetchResult.Failed)
            source.fetch(request(GitRef.semver(">=1.0.0"), Verification.Mode.TAG_AND_HEAD));
    assertEquals("commit '" + unsignedCommit.name() + "' is not signed", both.message());
    assertEquals(Optional.of(tagOnly), both.lastGood());

    FetchResult.Failed onBranch =
        (FetchResult.Failed) source.fetch(request(GitRef.branch("main"), Verification.Mode.TAG));
    assertEquals(FailureReason.INVALID_SPEC, onBranch.reason());
    assertTrue(
        onBranch.message().startsWith("spec.verify.mode Tag needs a tag"), onBranch.message());

    repo.tag("light", false);
    FetchResult.Failed light =
        (FetchResult.Failed)
            source.fetch(request(GitRef.name("refs/tags/light"), Verification.Mode.TAG));
    assertEquals(
        "tag 'refs/tags/light' is a lightweight tag, which carries no signature", light.message());
  }

  @Test
  void anUnreadableKeyIsTheSecretsFault() {
    FetchResult.Failed failed =
        (FetchResult.Failed)
            source.fetch(
                FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
                    .withVerification(
                        new Verification(
                            Verification.Mode.HEAD,
                            Map.of("bad.asc", "not a key".getBytes(UTF_8)))));
    assertEquals(FailureReason.INVALID_SECRET, failed.reason());
    assertEquals(
        "the verification secret's 'bad.asc' is not an OpenPGP public key", failed.message());
  }
}
