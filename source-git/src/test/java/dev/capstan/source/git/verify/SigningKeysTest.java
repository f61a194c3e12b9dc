package dev.capstan.source.git.verify;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.testing.PgpTestKey;
import dev.capstan.testing.SshTestKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checking signatures against the keys of spec.verify's Secret: SSH signatures made by OpenSSH's
 * {@code ssh-keygen -Y sign}, OpenPGP ones by Bouncy Castle, each against the keys of its kind.
 */
class SigningKeysTest {

  static final byte[] PAYLOAD =
      ("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
              + "author Test <test@example.invalid> 1700000000 +0000\n"
              + "committer Test <test@example.invalid> 1700000000 +0000\n\nrelease\n")
          .getBytes(UTF_8);

  @TempDir static Path keyDir;
  static SshTestKey trusted;
  static SshTestKey stranger;
  static PgpTestKey pgp;

  @TempDir Path tmp;
  Repository repository;
  Path scratch;

  @BeforeAll
  static void keys() {
    trusted = SshTestKey.generate(keyDir, "trusted", "ed25519");
    stranger = SshTestKey.generate(keyDir, "stranger", "ed25519");
    pgp = PgpTestKey.generate("Release <release@example.invalid>");
  }

  @BeforeEach
  void setUp() throws Exception {
    repository = new FileRepositoryBuilder().setGitDir(tmp.resolve("repo.git").toFile()).build();
    repository.create(true);
    scratch = Files.createDirectory(tmp.resolve("scratch"));
  }

  @AfterEach
  void tearDown() {
    repository.close();
  }

  private SigningKeys.Check check(Map<String, String> secret) throws Exception {
    Map<String, byte[]> data = new HashMap<>();
    secret.forEach((k, v) -> data.put(k, v.getBytes(UTF_8)));
    return SigningKeys.of(data).check(repository, scratch);
  }

  private static String failure(SigningKeys.Check check, byte[] signature, byte[] payload) {
    SourceException e =
        assertThrows(SourceException.class, () -> check.verify(signature, payload, "commit 'c1'"));
    assertEquals(FailureReason.VERIFICATION_FAILED, e.reason(), e.getMessage());
    return e.getMessage();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ed25519", "ecdsa", "rsa"})
  void aSignatureOfATrustedKeyNamesItsFingerprint(String type) throws Exception {
    SshTestKey key = SshTestKey.generate(keyDir.resolve(type), "signer", type);
    SigningKeys.Check check =
        check(Map.of("other.sshpub", stranger.publicKey(), "signer.sshpub", key.publicKey()));
    assertEquals(key.fingerprint(), check.verify(key.sign(PAYLOAD, "git"), PAYLOAD, "commit 'c1'"));
  }

  @Test
  void aKeyNotInTheSecretIsNamedAndRefused() throws Exception {
    assertEquals(
        "commit 'c1' is signed with SSH key "
            + stranger.fingerprint()
            + ", which is not one of the trusted keys",
        failure(
            check(Map.of("a.sshpub", trusted.publicKey())),
            stranger.sign(PAYLOAD, "git"),
            PAYLOAD));
  }

  @Test
  void otherContentOrAnotherNamespaceDoesNotVerify() throws Exception {
    SigningKeys.Check check = check(Map.of("a.sshpub", trusted.publicKey()));
    String expected =
        "the signature of commit 'c1' does not match its content or is not a Git signature (key "
            + trusted.fingerprint()
            + ")";
    byte[] tampered = new String(PAYLOAD, UTF_8).replace("release", "relea5e").getBytes(UTF_8);
    assertEquals(expected, failure(check, trusted.sign(PAYLOAD, "git"), tampered));
    assertEquals(expected, failure(check, trusted.sign(PAYLOAD, "file"), PAYLOAD));
  }

  @Test
  void aMalformedSignatureIsRefusedWithoutQuotingIt() throws Exception {
    SigningKeys.Check check = check(Map.of("a.sshpub", trusted.publicKey()));
    byte[] garbage =
        "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ-S3CRET\n-----END SSH SIGNATURE-----\n"
            .getBytes(UTF_8);
    assertEquals(
        "the signature of commit 'c1' is not a valid SSH signature",
        failure(check, garbage, PAYLOAD));
    byte[] truncated =
        new String(trusted.sign(PAYLOAD, "git"), UTF_8).substring(0, 120).getBytes(UTF_8);
    assertEquals(
        "the signature of commit 'c1' is not a valid SSH signature",
        failure(check, truncated, PAYLOAD));
  }

  @Test
  void eachSignatureIsCheckedAgainstTheKeysOfItsKind() throws Exception {
    String armored = new String(pgp.armoredPublicKey(), UTF_8);
    SigningKeys.Check both =
        check(Map.of("release.asc", armored, "release.sshpub", trusted.publicKey()));
    assertEquals(
        trusted.fingerprint(), both.verify(trusted.sign(PAYLOAD, "git"), PAYLOAD, "commit 'c1'"));
    assertEquals(pgp.fingerprint(), both.verify(pgp.sign(PAYLOAD), PAYLOAD, "commit 'c1'"));

    assertEquals(
        "commit 'c1' is signed with an SSH key, and the verification secret holds no SSH public"
            + " key (entries named *.sshpub)",
        failure(check(Map.of("release.asc", armored)), trusted.sign(PAYLOAD, "git"), PAYLOAD));
    assertEquals(
        "commit 'c1' is signed with an OpenPGP key, and the verification secret holds no OpenPGP"
            + " public key (entries not named *.sshpub)",
        failure(check(Map.of("a.sshpub", trusted.publicKey())), pgp.sign(PAYLOAD), PAYLOAD));
  }

  @Test
  void missingAndUncheckableSignatures() throws Exception {
    SigningKeys.Check check = check(Map.of("a.sshpub", trusted.publicKey()));
    assertEquals("commit 'c1' is not signed", failure(check, null, PAYLOAD));
    assertEquals(
        "commit 'c1' carries an X.509 (S/MIME) signature, which spec.verify cannot check",
        failure(
            check,
            "-----BEGIN SIGNED MESSAGE-----\nMIIB\n-----END SIGNED MESSAGE-----\n".getBytes(UTF_8),
            PAYLOAD));
    assertEquals(
        "the signature of commit 'c1' is neither an OpenPGP nor an SSH signature",
        failure(check, "just text".getBytes(UTF_8), PAYLOAD));
  }

  @Test
  void aSecretWithoutKeysIsTheSecretsFault() {
    SourceException e = assertThrows(SourceException.class, () -> SigningKeys.of(Map.of()));
    assertEquals(FailureReason.INVALID_SECRET, e.reason());
    assertEquals("the verification secret holds no public key", e.getMessage());
    SourceException pgpEntry =
        assertThrows(
            SourceException.class,
            () ->
                SigningKeys.of(
                    Map.of(
                        "a.sshpub", trusted.publicKey().getBytes(UTF_8),
                        "notes.txt", "not a key".getBytes(UTF_8))));
    assertTrue(
        pgpEntry
            .getMessage()
            .equals("the verification secret's 'notes.txt' is not an OpenPGP" + " public key"),
        "an entry without the .sshpub suffix is read as OpenPGP keys, as Flux does: "
            + pgpEntry.getMessage());
  }
}
