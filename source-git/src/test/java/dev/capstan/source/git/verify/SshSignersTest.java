package dev.capstan.source.git.verify;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.testing.SshTestKey;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the .sshpub entries of spec.verify's Secret; fingerprints as OpenSSH prints them. */
class SshSignersTest {

  @TempDir static Path keys;
  static SshTestKey ed25519;
  static SshTestKey ecdsa;
  static SshTestKey rsa;

  @BeforeAll
  static void generate() {
    ed25519 = SshTestKey.generate(keys, "ed", "ed25519");
    ecdsa = SshTestKey.generate(keys, "ec", "ecdsa");
    rsa = SshTestKey.generate(keys, "rsa", "rsa");
  }

  private static Map<String, byte[]> entry(String name, String text) {
    return Map.of(name, text.getBytes(UTF_8));
  }

  private static SourceException refused(Map<String, byte[]> entries) {
    SourceException e = assertThrows(SourceException.class, () -> SshSigners.parse(entries));
    assertEquals(FailureReason.INVALID_SECRET, e.reason());
    return e;
  }

  @Test
  void authorizedKeysLinesWithOptionsCommentsAndBlankLines() {
    String text =
        "# release signers\n\n"
            + ed25519.publicKey()
            + "\r\n"
            + "no-port-forwarding,command=\"echo hi\" "
            + ecdsa.publicKey()
            + "\n   \n";
    SshSigners signers =
        SshSigners.parse(
            Map.of(
                "team.sshpub", text.getBytes(UTF_8), "ci.sshpub", rsa.publicKey().getBytes(UTF_8)));
    assertEquals(3, signers.keys().size());
    assertEquals(
        Set.of(ed25519.fingerprint(), ecdsa.fingerprint(), rsa.fingerprint()),
        signers.fingerprints());
  }

  @Test
  void allowedSignersTrustEveryKeyForGitSignaturesOfAnyone() {
    SshSigners signers = SshSigners.parse(entry("a.sshpub", ed25519.publicKey()));
    String[] fields = ed25519.publicKey().split(" ");
    assertEquals(
        "* namespaces=\"git\" " + fields[0] + " " + fields[1] + "\n", signers.allowedSigners());
  }

  @Test
  void aLineThatIsNoKeyIsNamedByEntryAndLineAndNeverQuoted() {
    String bad = "ssh-ed25519 AAAAnot-base64-S3CRET comment";
    SourceException e = refused(entry("a.sshpub", ed25519.publicKey() + "\n" + bad + "\n"));
    assertEquals(
        "the verification secret's 'a.sshpub' line 2 is not an SSH public key in authorized_keys"
            + " format",
        e.getMessage());
    assertFalse(e.getMessage().contains("S3CRET"));
  }

  @Test
  void anArmoredOpenPgpKeyUnderSshpubIsRefused() {
    assertEquals(
        "the verification secret's 'k.sshpub' line 1 is not an SSH public key in authorized_keys"
            + " format",
        refused(entry("k.sshpub", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBF\n"))
            .getMessage());
  }

  @Test
  void aCertificateIsRefused() {
    SshTestKey authority = SshTestKey.generate(keys, "user-ca", "ed25519");
    SshTestKey user = SshTestKey.generate(keys, "certified", "ed25519");
    assertEquals(
        "the verification secret's 'c.sshpub' line 1 is an SSH certificate; give the signer's"
            + " plain public key",
        refused(entry("c.sshpub", user.certificateBy(authority))).getMessage());
  }

  @Test
  void anEntryWithoutKeysIsRefused() {
    assertEquals(
        "the verification secret's 'empty.sshpub' holds no SSH public key",
        refused(entry("empty.sshpub", "# nobody yet\n")).getMessage());
  }

  @Test
  void anOversizedEntryIsRefused() {
    assertEquals(
        "the verification secret's 'big.sshpub' is larger than 1048576 bytes",
        refused(entry("big.sshpub", "#".repeat(OpenPgpVerifier.MAX_KEY_BYTES + 1))).getMessage());
  }
}
