package dev.capstan.source.git.verify;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.lib.GpgConfig.GpgFormat;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.SignatureVerifiers;

/**
 * The trusted keys of {@code spec.verify}'s Secret, read as Flux reads them: an entry whose name
 * ends in {@code .sshpub} holds SSH public keys, every other entry OpenPGP public keys ({@code
 * .asc} by convention). Each signature is checked against the keys of its own kind, told by its
 * armor.
 */
public final class SigningKeys {

  static final String SSH_SUFFIX = ".sshpub";

  private final OpenPgpVerifier openPgp;
  private final SshSigners ssh;

  private SigningKeys(OpenPgpVerifier openPgp, SshSigners ssh) {
    this.openPgp = openPgp;
    this.ssh = ssh;
  }

  /**
   * @throws SourceException {@link FailureReason#INVALID_SECRET} when an entry holds no usable key
   *     of its kind, or the Secret holds no key at all
   */
  public static SigningKeys of(Map<String, byte[]> secret) {
    Map<String, byte[]> sshEntries = new TreeMap<>();
    Map<String, byte[]> openPgpEntries = new TreeMap<>();
    secret.forEach(
        (name, value) ->
            (name.endsWith(SSH_SUFFIX) ? sshEntries : openPgpEntries).put(name, value));
    if (sshEntries.isEmpty() && openPgpEntries.isEmpty()) {
      throw new SourceException(
          FailureReason.INVALID_SECRET, "the verification secret holds no public key");
    }
    return new SigningKeys(
        openPgpEntries.isEmpty() ? null : OpenPgpVerifier.of(openPgpEntries),
        sshEntries.isEmpty() ? null : SshSigners.parse(sshEntries));
  }

  /**
   * A check of signatures in {@code repository}; SSH signatures are checked against an
   * allowed-signers file written into {@code scratch}, an empty directory the caller deletes.
   */
  public Check check(Repository repository, Path scratch) throws IOException {
    return new Check(ssh == null ? null : SshSignatureCheck.writeIn(scratch, ssh, repository));
  }

  /** Verifies one signature after another with these keys. */
  final class Check {

    private final SshSignatureCheck sshCheck;

    private Check(SshSignatureCheck sshCheck) {
      this.sshCheck = sshCheck;
    }

    /**
     * @param signature the object's signature as stored, or null when it has none
     * @param payload the bytes the signature must cover
     * @param what names the signed object in messages, e.g. {@code commit 'abc…'}
     * @return the fingerprint of the key that made the signature
     * @throws SourceException {@link FailureReason#VERIFICATION_FAILED} saying why not
     */
    String verify(byte[] signature, byte[] payload, String what) {
      if (signature == null) {
        throw failed(what + " is not signed");
      }
      GpgFormat format = SignatureVerifiers.getFormat(signature);
      if (format == GpgFormat.SSH) {
        if (sshCheck == null) {
          throw failed(
              what
                  + " is signed with an SSH key, and the verification secret holds no SSH public"
                  + " key (entries named *"
                  + SSH_SUFFIX
                  + ")");
        }
        return sshCheck.verify(signature, payload, what);
      }
      if (format == GpgFormat.X509) {
        throw failed(what + " carries an X.509 (S/MIME) signature, which spec.verify cannot check");
      }
      if (openPgp == null && format == null) {
        throw failed("the signature of " + what + " is neither an OpenPGP nor an SSH signature");
      }
      if (openPgp == null) {
        throw failed(
            what
                + " is signed with an OpenPGP key, and the verification secret holds no OpenPGP"
                + " public key (entries not named *"
                + SSH_SUFFIX
                + ")");
      }
      return openPgp.verify(signature, payload, what);
    }
  }

  private static SourceException failed(String message) {
    return new SourceException(FailureReason.VERIFICATION_FAILED, message);
  }
}
