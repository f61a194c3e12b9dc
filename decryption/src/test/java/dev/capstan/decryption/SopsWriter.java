package dev.capstan.decryption;

import com.exceptionfactory.jagged.framework.armor.ArmoredEncryptingChannelFactory;
import com.exceptionfactory.jagged.x25519.X25519KeyPairGenerator;
import com.exceptionfactory.jagged.x25519.X25519RecipientStanzaWriterFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes SOPS YAML documents as sops writes them, for an age key made by the test: the documents
 * sops itself would never write (hostile metadata, huge numbers of values) but that anyone holding
 * a tenant's public recipient can commit. The values whose path {@code encrypt} accepts are
 * encrypted, whatever the rules written into the metadata say; the MAC covers every value.
 */
public final class SopsWriter {
  private static final String LAST_MODIFIED = "2025-01-01T00:00:00Z";
  private static final YAMLMapper YAML = new YAMLMapper();

  /** What SOPS hashes first with mac_only_encrypted (its documentation's constant). */
  private static final String MAC_ONLY_ENCRYPTED_INIT =
      "8a3fd2ad54ce66527b1034f3d147be0b0b975b3bf44f72c6fdadec8176f27d69";

  // Encrypted values as plain scalars, as sops writes them: "mac: ENC[…" is how a file is told.
  private static final Pattern QUOTED_ENCRYPTED =
      Pattern.compile("\"(ENC\\[AES256_GCM,[^\"]*\\])\"");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String recipient;
  private final String identity;

  public SopsWriter() {
    try {
      KeyPair pair = new X25519KeyPairGenerator().generateKeyPair();
      this.recipient = pair.getPublic().toString();
      this.identity = pair.getPrivate().toString();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The age identity that opens this writer's documents, as a decryption Secret holds it. */
  public String identity() {
    return identity;
  }

  /** The decryption Secret's keys that open this writer's documents. */
  public DecryptionKeys keys() {
    return DecryptionKeys.fromSecretData(
        Map.of("test.agekey", identity.getBytes(StandardCharsets.US_ASCII)));
  }

  /** The document with its values encrypted where {@code encrypt} says, and {@code rules}. */
  public byte[] yaml(
      Map<String, Object> document, Map<String, Object> rules, Predicate<List<String>> encrypt) {
    return yaml(document, rules, encrypt, 1);
  }

  /** As {@link #yaml}, with the recipient's copy of the data key listed {@code copies} times. */
  public byte[] yaml(
      Map<String, Object> document,
      Map<String, Object> rules,
      Predicate<List<String>> encrypt,
      int copies) {
    byte[] dataKey = new byte[32];
    RANDOM.nextBytes(dataKey);
    Encryption encryption =
        new Encryption(dataKey, encrypt, Boolean.TRUE.equals(rules.get("mac_only_encrypted")));
    Map<String, Object> out = new LinkedHashMap<>(encryption.map(document, List.of()));
    Map<String, Object> sops = new LinkedHashMap<>(rules);
    sops.put(
        "age",
        Collections.nCopies(copies, Map.of("recipient", recipient, "enc", wrapped(dataKey))));
    sops.put("lastmodified", LAST_MODIFIED);
    sops.put("mac", encryption.mac());
    sops.put("version", "3.9.4");
    out.put("sops", sops);
    try {
      return QUOTED_ENCRYPTED
          .matcher(YAML.writeValueAsString(out))
          .replaceAll("$1")
          .getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String wrapped(byte[] dataKey) {
    ByteArrayOutputStream armored = new ByteArrayOutputStream();
    try (WritableByteChannel channel =
        new ArmoredEncryptingChannelFactory()
            .newEncryptingChannel(
                Channels.newChannel(armored),
                List.of(X25519RecipientStanzaWriterFactory.newRecipientStanzaWriter(recipient)))) {
      channel.write(ByteBuffer.wrap(dataKey));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    return armored.toString(StandardCharsets.US_ASCII);
  }

  /** One document's values encrypted in document order, hashed on the way as SOPS hashes them. */
  private static final class Encryption {
    private final byte[] dataKey;
    private final Predicate<List<String>> encrypt;
    private final boolean macOnlyEncrypted;
    private final MessageDigest digest;

    Encryption(byte[] dataKey, Predicate<List<String>> encrypt, boolean macOnlyEncrypted) {
      this.dataKey = dataKey;
      this.encrypt = encrypt;
      this.macOnlyEncrypted = macOnlyEncrypted;
      try {
        this.digest = MessageDigest.getInstance("SHA-512");
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
      if (macOnlyEncrypted) {
        digest.update(HexFormat.of().parseHex(MAC_ONLY_ENCRYPTED_INIT));
      }
    }

    Map<String, Object> map(Map<?, ?> map, List<String> path) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        List<String> child = new ArrayList<>(path);
        child.add(String.valueOf(entry.getKey()));
        out.put(String.valueOf(entry.getKey()), node(entry.getValue(), child));
      }
      return out;
    }

    private Object node(Object value, List<String> path) {
      if (value instanceof Map<?, ?> m) {
        return map(m, path);
      }
      if (value instanceof List<?> list) {
        List<Object> out = new ArrayList<>();
        list.forEach(item -> out.add(node(item, path)));
        return out;
      }
      boolean encrypted = encrypt.test(path);
      if (encrypted || !macOnlyEncrypted) {
        digest.update(TreeDecryption.bytes(value));
      }
      return encrypted ? encrypted(value, String.join(":", path) + ":") : value;
    }

    String mac() {
      String hex = HexFormat.of().withUpperCase().formatHex(digest.digest());
      return encrypted(hex, RfcTime.normalized(LAST_MODIFIED));
    }

    private String encrypted(Object value, String additionalData) {
      String type =
          value instanceof Boolean
              ? "bool"
              : value instanceof Integer || value instanceof Long
                  ? "int"
                  : value instanceof Double ? "float" : "str";
      byte[] iv = new byte[32];
      RANDOM.nextBytes(iv);
      try {
        Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(
            Cipher.ENCRYPT_MODE, new SecretKeySpec(dataKey, "AES"), new GCMParameterSpec(128, iv));
        gcm.updateAAD(additionalData.getBytes(StandardCharsets.UTF_8));
        byte[] sealed = gcm.doFinal(String.valueOf(value).getBytes(StandardCharsets.UTF_8));
        int tagAt = sealed.length - 16;
        Base64.Encoder b64 = Base64.getEncoder();
        return "ENC[AES256_GCM,data:"
            + b64.encodeToString(Arrays.copyOf(sealed, tagAt))
            + ",iv:"
            + b64.encodeToString(iv)
            + ",tag:"
            + b64.encodeToString(Arrays.copyOfRange(sealed, tagAt, sealed.length))
            + ",type:"
            + type
            + "]";
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
