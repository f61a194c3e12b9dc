package dev.capstan.source.git.verify;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.sshd.common.config.keys.AuthorizedKeyEntry;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.OpenSshCertificate;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;

/**
 * The SSH public keys trusted to sign commits and tags: the {@code .sshpub} entries of {@code
 * spec.verify}'s Secret, each holding lines in {@code authorized_keys} format (options before the
 * key and a comment after it are allowed; blank lines and {@code #} comments are skipped).
 *
 * @param keys every trusted key, in the Secret's entry order
 * @param fingerprints their SHA-256 fingerprints ({@code SHA256:<base64>}), as OpenSSH prints them
 */
record SshSigners(List<PublicKey> keys, Set<String> fingerprints) {

  SshSigners {
    keys = List.copyOf(keys);
    fingerprints = Set.copyOf(fingerprints);
  }

  /**
   * @param entries the {@code .sshpub} entries of the Secret, by name
   * @throws SourceException {@link FailureReason#INVALID_SECRET} naming the entry and line that
   *     holds no usable public key
   */
  static SshSigners parse(Map<String, byte[]> entries) {
    List<PublicKey> keys = new ArrayList<>();
    Set<String> fingerprints = new LinkedHashSet<>();
    for (var entry : new TreeMap<>(entries).entrySet()) {
      int before = keys.size();
      checkSize(entry.getKey(), entry.getValue());
      String[] lines = new String(entry.getValue(), StandardCharsets.UTF_8).split("\r?\n", -1);
      for (int i = 0; i < lines.length; i++) {
        String line = lines[i].strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        PublicKey key = parseLine(line, entry.getKey(), i + 1);
        keys.add(key);
        fingerprints.add(KeyUtils.getFingerPrint(key));
      }
      if (keys.size() == before) {
        throw invalid("the verification secret's '" + entry.getKey() + "' holds no SSH public key");
      }
    }
    return new SshSigners(keys, fingerprints);
  }

  /**
   * The keys as an OpenSSH allowed-signers list: any principal, for Git signatures only. Signers
   * are not matched to the committer's e-mail address; a trusted key is enough.
   */
  String allowedSigners() {
    StringBuilder text = new StringBuilder();
    for (PublicKey key : keys) {
      text.append("* namespaces=\"git\" ").append(PublicKeyEntry.toString(key)).append('\n');
    }
    return text.toString();
  }

  private static PublicKey parseLine(String line, String entry, int number) {
    String where = "the verification secret's '" + entry + "' line " + number;
    PublicKey key;
    try {
      key =
          AuthorizedKeyEntry.parseAuthorizedKeyEntry(line)
              .resolvePublicKey(null, PublicKeyEntryResolver.FAILING);
    } catch (Exception e) {
      // The line itself is never quoted: it is the tenant's text.
      throw invalid(where + " is not an SSH public key in authorized_keys format");
    }
    if (key == null) {
      throw invalid(where + " is not an SSH public key in authorized_keys format");
    }
    if (key instanceof OpenSshCertificate) {
      throw invalid(where + " is an SSH certificate; give the signer's plain public key");
    }
    return key;
  }

  private static void checkSize(String name, byte[] value) {
    if (value.length > OpenPgpVerifier.MAX_KEY_BYTES) {
      throw invalid(
          "the verification secret's '"
              + name
              + "' is larger than "
              + OpenPgpVerifier.MAX_KEY_BYTES
              + " bytes");
    }
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_SECRET, message);
  }

  @Override
  public String toString() {
    return "SshSigners" + fingerprints;
  }
}
