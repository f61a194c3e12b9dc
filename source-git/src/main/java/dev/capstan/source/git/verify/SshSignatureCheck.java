package dev.capstan.source.git.verify;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.GpgConfig;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.SignatureVerifier;
import org.eclipse.jgit.lib.SignatureVerifier.SignatureVerification;
import org.eclipse.jgit.signing.ssh.SshSignatureVerifierFactory;

/**
 * Checks Git's SSH signatures (an armored OpenSSH {@code SSHSIG} blob in the namespace {@code git})
 * with JGit's SSH signature verifier, against an allowed-signers file written from the trusted keys
 * alone. JGit reads that file by the path given in a {@link GpgConfig} made here, never the
 * repository's or the user's git configuration.
 */
final class SshSignatureCheck {

  private final SshSigners signers;
  private final Repository repository;
  private final GpgConfig config;
  private final SignatureVerifier verifier;

  SshSignatureCheck(
      SshSigners signers, Repository repository, Path allowedSigners, SignatureVerifier verifier) {
    this.signers = signers;
    this.repository = repository;
    Config git = new Config();
    git.setString("gpg", "ssh", "allowedSignersFile", allowedSigners.toAbsolutePath().toString());
    this.config = new GpgConfig(git);
    this.verifier = verifier;
  }

  /**
   * Writes the allowed-signers file into {@code dir} (a directory of this check alone, deleted by
   * the caller afterwards: JGit keeps what it read from a path, so a path is never written twice).
   */
  static SshSignatureCheck writeIn(Path dir, SshSigners signers, Repository repository)
      throws IOException {
    Path file = dir.resolve("allowed_signers");
    Files.writeString(file, signers.allowedSigners(), StandardCharsets.UTF_8);
    return new SshSignatureCheck(
        signers, repository, file, new SshSignatureVerifierFactory().create());
  }

  /**
   * @param signature the armored SSH signature
   * @param payload the bytes it must cover
   * @param what names the signed object in messages, e.g. {@code commit 'abc…'}
   * @return the fingerprint ({@code SHA256:…}) of the trusted key that made the signature
   * @throws SourceException {@link FailureReason#VERIFICATION_FAILED} saying why not
   */
  String verify(byte[] signature, byte[] payload, String what) {
    if (signature.length > OpenPgpVerifier.MAX_SIGNATURE_BYTES) {
      throw failed(
          "the signature of "
              + what
              + " is larger than "
              + OpenPgpVerifier.MAX_SIGNATURE_BYTES
              + " bytes");
    }
    SignatureVerification result;
    try {
      result = verifier.verify(repository, config, payload, signature);
    } catch (IOException | RuntimeException e) {
      // A malformed blob; JGit's own words may quote it, so they are not passed on.
      throw failed("the signature of " + what + " is not a valid SSH signature");
    }
    String key = result == null ? null : result.keyFingerprint();
    if (key == null) {
      throw failed("the signature of " + what + " is not a valid SSH signature");
    }
    if (!signers.fingerprints().contains(key)) {
      throw failed(
          what + " is signed with SSH key " + key + ", which is not one of the trusted keys");
    }
    if (!result.verified()) {
      throw failed(
          "the signature of "
              + what
              + " does not match its content or is not a Git signature (key "
              + key
              + ")");
    }
    return key;
  }

  private static SourceException failed(String message) {
    return new SourceException(FailureReason.VERIFICATION_FAILED, message);
  }
}
