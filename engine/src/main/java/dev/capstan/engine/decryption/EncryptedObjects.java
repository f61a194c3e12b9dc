package dev.capstan.engine.decryption;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * SOPS-encrypted objects of a build's output (Secrets, as Flux decrypts them after the build).
 * The build may have set their namespace, labels or name, so their MAC is checked on the
 * document as committed: the object's encrypted MAC (new at every encryption) names it among
 * the artifact's YAML and JSON files.
 */
public final class EncryptedObjects {
  private static final int MAX_FILES = 10_000;

  private final Path root;
  private final SopsDecryptor decryptor;
  private final DecryptionKeys keys;
  private final Map<String, String> verified = new HashMap<>();

  public EncryptedObjects(Path root, SopsDecryptor decryptor, DecryptionKeys keys) {
    this.root = root;
    this.decryptor = decryptor;
    this.keys = keys;
  }

  /** Whether an object (as a map) is SOPS-encrypted: it has a {@code sops} entry with a MAC. */
  public static boolean isEncrypted(Map<String, Object> object) {
    return object.get("sops") instanceof Map<?, ?> sops && sops.get("mac") != null;
  }

  /**
   * The object decrypted, without its {@code sops} entry.
   *
   * @throws DecryptionException when it cannot be decrypted or no committed document with its
   *     MAC verifies
   */
  public Map<String, Object> decrypt(Map<String, Object> object) throws IOException {
    String mac = String.valueOf(((Map<?, ?>) object.get("sops")).get("mac"));
    verifySource(mac);
    return decryptor.decryptObject(object, keys);
  }

  private void verifySource(String mac) throws IOException {
    if (verified.containsKey(mac)) {
      return;
    }
    for (Path file : candidates()) {
      byte[] content = Files.readAllBytes(file);
      if (!new String(content, java.nio.charset.StandardCharsets.ISO_8859_1).contains(mac)) {
        continue;
      }
      String name = root.relativize(file).toString();
      try {
        if (decryptor.verifyCommitted(content, SopsFormat.forPath(name), mac, keys)) {
          verified.put(mac, name);
          return;
        }
      } catch (DecryptionException e) {
        throw e.in("file '" + name + "'");
      }
    }
    throw new DecryptionException(DecryptionException.Problem.INTEGRITY,
        "no committed document of the source carries its sops metadata, so its MAC cannot be checked");
  }

  private List<Path> candidates() throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        return dir.getFileName() != null && dir.getFileName().toString().equals(".git")
            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        SopsFormat format = SopsFormat.forPath(file.getFileName().toString());
        if (attrs.isRegularFile() && attrs.size() <= SopsDecryptor.MAX_DOCUMENT_BYTES
            && (format == SopsFormat.YAML || format == SopsFormat.JSON) && files.size() < MAX_FILES) {
          files.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return files;
  }

  /** The committed file an object's MAC was verified in, once {@link #decrypt} succeeded. */
  public Optional<String> sourceOf(String mac) {
    return Optional.ofNullable(verified.get(mac));
  }
}
