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
import dev.capstan.testing.GitCli;
import dev.capstan.testing.PgpTestKey;
import dev.capstan.testing.SshTestKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec.verify with SSH keys over smart HTTP: commits and tags signed by git itself ({@code
 * gpg.format ssh}) with keys made by ssh-keygen, the trusted ones given as {@code .sshpub} entries.
 */
class SshSignatureVerificationIT {

  @TempDir static Path keys;
  static SshTestKey trusted;
  static SshTestKey releaser;
  static SshTestKey stranger;

  @TempDir Path tmp;
  TestRepo repo;
  HttpGitServer server;
  GitSource source;

  @BeforeAll
  static void generate() {
    trusted = SshTestKey.generate(keys, "dev", "ed25519");
    releaser = SshTestKey.generate(keys, "release", "rsa");
    stranger = SshTestKey.generate(keys, "stranger", "ecdsa");
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
        .withVerification(
            new Verification(
                mode,
                Map.of(
                    "dev.sshpub", trusted.publicKey().getBytes(UTF_8),
                    "release.sshpub", releaser.publicKey().getBytes(UTF_8))));
  }

  private String commit(String content, SshTestKey key) throws Exception {
    Files.writeString(repo.dir().resolve("cm.yaml"), content);
    return key == null
        ? repo.commitAll("unsigned").name()
        : GitCli.commitSigned(repo.dir(), key, "signed");
  }

  private static StoredArtifact fetched(FetchResult result) {
    if (result instanceof FetchResult.Failed f) {
      throw new AssertionError("fetch failed: " + f.reason() + ": " + f.message());
    }
    return result.artifact().orElseThrow();
  }

  private static FetchResult.Failed verificationFailed(FetchResult result) {
    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, result);
    assertEquals(FailureReason.VERIFICATION_FAILED, failed.reason(), failed.message());
    return failed;
  }

  @Test
  void aCommitSignedByATrustedKeyIsStoredAndOthersAreNot() throws Exception {
    String signed = commit("v: 1\n", trusted);
    FetchRequest request = request(GitRef.branch("main"), Verification.Mode.HEAD);

    StoredArtifact good = fetched(source.fetch(request));
    assertEquals(signed, good.commitId());
    assertEquals(
        Optional.of(
            new Verified(
                "HEAD",
                "verified signature of commit '"
                    + signed
                    + "' with key '"
                    + trusted.fingerprint()
                    + "'")),
        good.verified());

    String unsigned = commit("v: 2\n", null);
    FetchResult.Failed notSigned = verificationFailed(source.fetch(request));
    assertEquals("commit '" + unsigned + "' is not signed", notSigned.message());
    assertEquals(Optional.of(good), notSigned.lastGood());

    String foreign = commit("v: 3\n", stranger);
    FetchResult.Failed unknown = verificationFailed(source.fetch(request));
    assertEquals(
        "commit '"
            + foreign
            + "' is signed with SSH key "
            + stranger.fingerprint()
            + ", which is not one of the trusted keys",
        unknown.message());
    assertEquals(Optional.of(good), unknown.lastGood());
    assertEquals(
        good, source.lastArtifact("ns/app").orElseThrow(), "the last verified artifact stays");
    assertEquals("v: 1\n", Files.readString(good.path().resolve("cm.yaml")));

    String next = commit("v: 4\n", releaser);
    assertEquals(next, fetched(source.fetch(request)).commitId());
  }

  @Test
  void aCommitWhoseContentWasChangedAfterSigningIsRefused() throws Exception {
    String signed = commit("v: 1\n", trusted);
    String tampered = tamper(signed);
    FetchResult.Failed failed =
        verificationFailed(source.fetch(request(GitRef.branch("main"), Verification.Mode.HEAD)));
    assertEquals(
        "the signature of commit '"
            + tampered
            + "' does not match its content or is not a Git signature (key "
            + trusted.fingerprint()
            + ")",
        failed.message());
    assertTrue(failed.lastGood().isEmpty(), "nothing was stored");
    assertTrue(source.lastArtifact("ns/app").isEmpty());
  }

  /** Rewrites HEAD's message, keeping its signature, and points main at the copy. */
  private String tamper(String commitId) throws Exception {
    var repository = repo.git().getRepository();
    try (RevWalk walk = new RevWalk(repository);
        var inserter = repository.newObjectInserter()) {
      RevCommit original = walk.parseCommit(ObjectId.fromString(commitId));
      String text = new String(original.getRawBuffer(), UTF_8);
      assertTrue(text.endsWith("\n\nsigned\n"), text);
      byte[] raw = text.replace("\n\nsigned\n", "\n\nforged\n").getBytes(UTF_8);
      ObjectId copy = inserter.insert(Constants.OBJ_COMMIT, raw);
      inserter.flush();
      var update = repository.updateRef("refs/heads/main");
      update.setNewObjectId(copy);
      update.forceUpdate();
      return copy.name();
    }
  }

  @Test
  void tagModesCheckTheTagsAndTheCommitsSignatures() throws Exception {
    String commit = commit("v: 1\n", trusted);
    GitCli.tagSigned(repo.dir(), releaser, "v1.0.0");

    StoredArtifact both =
        fetched(source.fetch(request(GitRef.semver(">=1.0.0"), Verification.Mode.TAG_AND_HEAD)));
    assertEquals(
        "verified signature of tag 'v1.0.0' with key '"
            + releaser.fingerprint()
            + "' and commit '"
            + commit
            + "' with key '"
            + trusted.fingerprint()
            + "'",
        both.verified().orElseThrow().message());
    assertEquals("TagAndHEAD", both.verified().orElseThrow().mode());

    commit("v: 2\n", trusted);
    GitCli.tagSigned(repo.dir(), stranger, "v1.1.0");
    FetchResult.Failed foreignTag =
        verificationFailed(source.fetch(request(GitRef.tag("v1.1.0"), Verification.Mode.TAG)));
    assertEquals(
        "tag 'v1.1.0' is signed with SSH key "
            + stranger.fingerprint()
            + ", which is not one of the trusted keys",
        foreignTag.message());
    assertEquals(Optional.of(both), foreignTag.lastGood());
  }

  @Test
  void openPgpAndSshKeysInOneSecret() throws Exception {
    PgpTestKey pgp = PgpTestKey.generate("Release <release@example.invalid>");
    FetchRequest request =
        FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
            .withVerification(
                new Verification(
                    Verification.Mode.HEAD,
                    Map.of(
                        "release.asc", pgp.armoredPublicKey(),
                        "dev.sshpub", trusted.publicKey().getBytes(UTF_8))));
    RevCommit pgpSigned = repo.signedCommit("pgp", Map.of("cm.yaml", "v: 1\n"), pgp::sign);
    assertEquals(
        "verified signature of commit '"
            + pgpSigned.name()
            + "' with key '"
            + pgp.fingerprint()
            + "'",
        fetched(source.fetch(request)).verified().orElseThrow().message());
    String sshSigned = commit("v: 2\n", trusted);
    assertEquals(
        "verified signature of commit '" + sshSigned + "' with key '" + trusted.fingerprint() + "'",
        fetched(source.fetch(request)).verified().orElseThrow().message());
  }

  @Test
  void whatIsVerifiedIsWhatOpenSshVerifies() throws Exception {
    String id = commit("v: 1\n", trusted);
    fetched(source.fetch(request(GitRef.branch("main"), Verification.Mode.HEAD)));
    try (RevWalk walk = new RevWalk(repo.git().getRepository())) {
      RevCommit commit = walk.parseCommit(ObjectId.fromString(id));
      byte[] payload = SignedObjects.payload(commit);
      byte[] signature = commit.getRawGpgSignature();
      assertTrue(trusted.verifiedByOpenSsh(payload, signature, "git"));
      assertTrue(
          !trusted.verifiedByOpenSsh(
              new String(payload, UTF_8).replace("\n\nsigned\n", "\n\nforged\n").getBytes(UTF_8),
              signature,
              "git"),
          "OpenSSH, too, refuses other content");
      assertEquals(
          List.of(trusted.fingerprint()),
          List.of(
              SigningKeys.of(Map.of("k.sshpub", trusted.publicKey().getBytes(UTF_8)))
                  .check(repo.git().getRepository(), Files.createDirectory(tmp.resolve("scratch")))
                  .verify(signature, payload, "commit")));
    }
  }
}
