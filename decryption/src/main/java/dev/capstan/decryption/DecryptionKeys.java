package dev.capstan.decryption;

import com.exceptionfactory.jagged.RecipientStanzaReader;
import com.exceptionfactory.jagged.x25519.X25519RecipientStanzaReaderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPSecretKeyRingCollection;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;

/**
 * The private keys of a decryption Secret, as Flux reads them: every entry ending in {@code
 * .agekey} holds age identities (one per line, comments allowed), every entry ending in {@code
 * .asc} an armored OpenPGP private key. Other entries are ignored.
 */
public final class DecryptionKeys {
  private static final String AGE_PREFIX = "AGE-SECRET-KEY-1";

  private final List<RecipientStanzaReader> age;
  private final List<PGPSecretKeyRingCollection> pgp;

  private DecryptionKeys(List<RecipientStanzaReader> age, List<PGPSecretKeyRingCollection> pgp) {
    this.age = List.copyOf(age);
    this.pgp = List.copyOf(pgp);
  }

  /**
   * Reads the keys of a Secret's data (decoded values by entry name).
   *
   * @throws DecryptionException naming the entry that holds no usable key (never its content)
   */
  public static DecryptionKeys fromSecretData(Map<String, byte[]> data) {
    List<RecipientStanzaReader> age = new ArrayList<>();
    List<PGPSecretKeyRingCollection> pgp = new ArrayList<>();
    for (Map.Entry<String, byte[]> entry : new TreeMap<>(data).entrySet()) {
      if (entry.getKey().endsWith(".agekey")) {
        age.addAll(ageIdentities(entry.getKey(), entry.getValue()));
      } else if (entry.getKey().endsWith(".asc")) {
        pgp.add(pgpKeys(entry.getKey(), entry.getValue()));
      }
    }
    return new DecryptionKeys(age, pgp);
  }

  List<RecipientStanzaReader> age() {
    return age;
  }

  List<PGPSecretKeyRingCollection> pgp() {
    return pgp;
  }

  boolean isEmpty() {
    return age.isEmpty() && pgp.isEmpty();
  }

  private static List<RecipientStanzaReader> ageIdentities(String entry, byte[] value) {
    List<RecipientStanzaReader> readers = new ArrayList<>();
    for (String line : new String(value, StandardCharsets.UTF_8).split("\\R")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      if (!trimmed.startsWith(AGE_PREFIX)) {
        throw invalid(entry, "a line is neither a comment nor an age identity (AGE-SECRET-KEY-1…)");
      }
      try {
        readers.add(X25519RecipientStanzaReaderFactory.newRecipientStanzaReader(trimmed));
      } catch (GeneralSecurityException | IllegalArgumentException e) {
        throw invalid(entry, "an age identity cannot be read");
      }
    }
    if (readers.isEmpty()) {
      throw invalid(entry, "it holds no age identity");
    }
    return readers;
  }

  private static PGPSecretKeyRingCollection pgpKeys(String entry, byte[] value) {
    try {
      PGPSecretKeyRingCollection keys =
          new PGPSecretKeyRingCollection(
              PGPUtil.getDecoderStream(new ByteArrayInputStream(value)),
              new BcKeyFingerprintCalculator());
      if (keys.size() == 0) {
        throw invalid(entry, "it holds no OpenPGP private key");
      }
      return keys;
    } catch (IOException | PGPException | RuntimeException e) {
      if (e instanceof DecryptionException d) {
        throw d;
      }
      throw invalid(entry, "it is not an armored OpenPGP private key");
    }
  }

  private static DecryptionException invalid(String entry, String why) {
    return new DecryptionException(
        DecryptionException.Problem.INVALID_KEY,
        "entry '" + entry + "' of the decryption Secret: " + why);
  }
}
