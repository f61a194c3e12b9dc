package dev.capstan.decryption;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * SOPS-encrypted objects of a build's output, decrypted after the build as Flux decrypts them. The
 * build may have set their namespace, labels or name, so their MAC is checked on the document as
 * committed: the object's encrypted MAC (new at every encryption) names it among the artifact's
 * YAML and JSON files. One instance serves one build: the artifact is looked through once, at the
 * first encrypted object, and each MAC is verified once.
 */
public final class EncryptedObjects {
  private final Path root;
  private final SopsDecryptor decryptor;
  private final DecryptionKeys keys;
  private final Map<String, SopsDecryptor.Authored> verified = new HashMap<>();
  private final MacIndex.Bounds bounds;
  private MacIndex index;

  /**
   * An object decrypted, and what its committed documents fixed under their MAC (the namespace
   * their author gave it, which a build cannot change without the MAC failing).
   */
  public record Decrypted(Map<String, Object> object, SopsDecryptor.Authored authored) {}

  public EncryptedObjects(Path root, SopsDecryptor decryptor, DecryptionKeys keys) {
    this(root, decryptor, keys, MacIndex.Bounds.DEFAULT);
  }

  /** With other bounds on the artifact's YAML and JSON files looked through. */
  EncryptedObjects(
      Path root, SopsDecryptor decryptor, DecryptionKeys keys, MacIndex.Bounds bounds) {
    this.root = root;
    this.decryptor = decryptor;
    this.keys = keys;
    this.bounds = bounds;
  }

  /**
   * Whether an object (as a map) is SOPS-encrypted: it has a {@code sops} entry, as Flux tells an
   * encrypted Secret. Such an object is decrypted, or refused, never applied as it is.
   */
  public static boolean isEncrypted(Map<String, Object> object) {
    return object.get("sops") instanceof Map<?, ?>;
  }

  /**
   * The object decrypted, without its {@code sops} entry.
   *
   * @throws DecryptionException when it cannot be decrypted, or the committed documents with its
   *     MAC do not all verify, or there is none
   */
  public Decrypted decrypt(Map<String, Object> object) throws IOException {
    Object mac = ((Map<?, ?>) object.get("sops")).get("mac");
    if (!(mac instanceof String text) || text.isEmpty()) {
      throw new DecryptionException(
          DecryptionException.Problem.INTEGRITY,
          "its sops metadata has no MAC, so its integrity cannot be checked");
    }
    SopsDecryptor.Authored authored = verifySource(text);
    return new Decrypted(decryptor.decryptObject(object, keys), authored);
  }

  private SopsDecryptor.Authored verifySource(String mac) throws IOException {
    SopsDecryptor.Authored known = verified.get(mac);
    if (known != null) {
      return known;
    }
    if (index == null) {
      index = MacIndex.of(root, bounds);
    }
    List<String> files = index.filesWith(mac);
    if (files.isEmpty()) {
      throw new DecryptionException(
          DecryptionException.Problem.INTEGRITY,
          "no committed document of the source carries its sops metadata, so its MAC cannot be"
              + " checked");
    }
    // Every committed copy must verify: the object may have been built from any of them.
    SopsDecryptor.Authored authored = null;
    for (String name : files) {
      try {
        byte[] content = MacIndex.read(root.resolve(name));
        Optional<SopsDecryptor.Authored> copy =
            decryptor.verifyCommitted(content, SopsFormat.forPath(name), mac, keys);
        if (copy.isEmpty()) {
          throw new DecryptionException(
              DecryptionException.Problem.INTEGRITY, "its MAC is not the MAC entry of a document");
        }
        authored = authored == null ? copy.get() : authored.and(copy.get());
      } catch (DecryptionException e) {
        throw e.in("file '" + name + "'");
      }
    }
    verified.put(mac, authored);
    return authored;
  }
}
