package dev.capstan.decryption;

import com.exceptionfactory.jagged.framework.armor.ArmoredDecryptingChannelFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.bouncycastle.openpgp.PGPCompressedData;
import org.bouncycastle.openpgp.PGPEncryptedData;
import org.bouncycastle.openpgp.PGPEncryptedDataList;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPLiteralData;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKeyEncryptedData;
import org.bouncycastle.openpgp.PGPSecretKey;
import org.bouncycastle.openpgp.PGPSecretKeyRingCollection;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.bouncycastle.openpgp.operator.bc.BcPBESecretKeyDecryptorBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPublicKeyDataDecryptorFactory;

/**
 * Recovers a document's 256-bit data key from the copy encrypted for one of its recipients: age
 * recipients first, then PGP, as SOPS tries them.
 */
final class DataKey {
  private static final int KEY_BYTES = 32;

  /** An armored copy of a 32-byte key is well under this; anything larger is not one. */
  private static final int MAX_ENC_CHARS = 64 * 1024;

  private DataKey() {}

  static byte[] of(SopsMetadata metadata, DecryptionKeys keys) {
    if (metadata.age().isEmpty() && metadata.pgp().isEmpty()) {
      throw new DecryptionException(
          DecryptionException.Problem.UNSUPPORTED,
          "the data key is encrypted for no age or PGP recipient (other key services are not"
              + " supported)");
    }
    for (SopsMetadata.Recipient recipient : metadata.age()) {
      Optional<byte[]> key = age(recipient.enc(), keys);
      if (key.isPresent()) {
        return key.get();
      }
    }
    for (SopsMetadata.Recipient recipient : metadata.pgp()) {
      Optional<byte[]> key = pgp(recipient.enc(), keys);
      if (key.isPresent()) {
        return key.get();
      }
    }
    throw new DecryptionException(
        DecryptionException.Problem.NO_MATCHING_KEY,
        "no key of the decryption Secret opens the data key (recipients: "
            + recipients(metadata)
            + ")");
  }

  private static String recipients(SopsMetadata metadata) {
    String age =
        metadata.age().stream().map(r -> "age " + r.id()).collect(Collectors.joining(", "));
    String pgp =
        metadata.pgp().stream().map(r -> "PGP " + r.id()).collect(Collectors.joining(", "));
    return age.isEmpty() ? pgp : pgp.isEmpty() ? age : age + ", " + pgp;
  }

  private static Optional<byte[]> age(String enc, DecryptionKeys keys) {
    if (keys.age().isEmpty()) {
      return Optional.empty();
    }
    byte[] armored = bounded(enc).getBytes(StandardCharsets.US_ASCII);
    try (ReadableByteChannel in =
        new ArmoredDecryptingChannelFactory()
            .newDecryptingChannel(
                Channels.newChannel(new ByteArrayInputStream(armored)), keys.age())) {
      return Optional.of(readKey(in));
    } catch (GeneralSecurityException e) {
      return Optional.empty(); // none of the identities is a recipient of this copy
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // a damaged copy: another recipient's copy may still open
    }
  }

  private static byte[] readKey(ReadableByteChannel in) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(KEY_BYTES + 1);
    while (buffer.hasRemaining() && in.read(buffer) >= 0) {
      // read until the key is complete or the stream ends
    }
    if (buffer.position() != KEY_BYTES) {
      throw new IOException("not a data key");
    }
    return Arrays.copyOf(buffer.array(), KEY_BYTES);
  }

  private static Optional<byte[]> pgp(String enc, DecryptionKeys keys) {
    if (keys.pgp().isEmpty()) {
      return Optional.empty();
    }
    try (InputStream in =
        PGPUtil.getDecoderStream(
            new ByteArrayInputStream(bounded(enc).getBytes(StandardCharsets.US_ASCII)))) {
      Object first = new BcPGPObjectFactory(in).nextObject();
      if (!(first instanceof PGPEncryptedDataList list)) {
        return Optional.empty();
      }
      for (Iterator<PGPEncryptedData> it = list.getEncryptedDataObjects(); it.hasNext(); ) {
        if (it.next() instanceof PGPPublicKeyEncryptedData data) {
          Optional<PGPPrivateKey> key = privateKey(data.getKeyID(), keys.pgp());
          if (key.isPresent()) {
            return Optional.of(open(data, key.get()));
          }
        }
      }
      return Optional.empty();
    } catch (IOException | PGPException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<PGPPrivateKey> privateKey(
      long keyId, List<PGPSecretKeyRingCollection> rings) throws PGPException {
    for (PGPSecretKeyRingCollection collection : rings) {
      PGPSecretKey secret = collection.getSecretKey(keyId);
      if (secret != null) {
        try {
          return Optional.of(
              secret.extractPrivateKey(
                  new BcPBESecretKeyDecryptorBuilder(new BcPGPDigestCalculatorProvider())
                      .build(new char[0])));
        } catch (PGPException e) {
          throw new DecryptionException(
              DecryptionException.Problem.INVALID_KEY,
              "the OpenPGP private key for the data key is protected by a passphrase; "
                  + "the decryption Secret must hold keys without one");
        }
      }
    }
    return Optional.empty();
  }

  private static byte[] open(PGPPublicKeyEncryptedData data, PGPPrivateKey key)
      throws PGPException, IOException {
    try (InputStream clear = data.getDataStream(new BcPublicKeyDataDecryptorFactory(key))) {
      Object message = new BcPGPObjectFactory(clear).nextObject();
      if (message instanceof PGPCompressedData compressed) {
        message = new BcPGPObjectFactory(compressed.getDataStream()).nextObject();
      }
      if (!(message instanceof PGPLiteralData literal)) {
        throw new PGPException("not a literal message");
      }
      byte[] bytes = literal.getInputStream().readNBytes(KEY_BYTES + 1);
      if (data.isIntegrityProtected() && !data.verify()) {
        throw new PGPException("integrity check failed");
      }
      if (bytes.length != KEY_BYTES) {
        throw new PGPException("not a data key");
      }
      return bytes;
    }
  }

  private static String bounded(String enc) {
    if (enc.length() > MAX_ENC_CHARS) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "an encrypted data key is larger than any data key");
    }
    return enc;
  }
}
