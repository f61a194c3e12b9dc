package dev.capstan.decryption;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The fixtures that make-fixtures wrote with the real sops, and their throwaway keys. */
final class SopsFixtures {
  static final Path ROOT = Path.of("src/test/resources/sops");

  private SopsFixtures() {}

  static byte[] encrypted(String name) {
    return read(ROOT.resolve("encrypted").resolve(name));
  }

  static byte[] plain(String name) {
    return read(ROOT.resolve("plain").resolve(name));
  }

  static byte[] key(String name) {
    return read(ROOT.resolve("keys").resolve(name));
  }

  /** Keys as a decryption Secret would hold them, entry name → bytes. */
  static DecryptionKeys keys(String... names) {
    Map<String, byte[]> data = new LinkedHashMap<>();
    for (String name : names) {
      data.put(name, key(name));
    }
    return DecryptionKeys.fromSecretData(data);
  }

  private static byte[] read(Path path) {
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
