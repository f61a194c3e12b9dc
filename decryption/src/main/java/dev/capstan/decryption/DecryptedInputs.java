package dev.capstan.decryption;

import java.util.Map;

/**
 * The decrypted secretGenerator inputs of one build, by path in the artifact: for the build's own
 * in-memory copy of the artifact only (and for {@link Plaintexts}, to keep them out of messages).
 */
public record DecryptedInputs(Map<String, byte[]> files) {
  public static final DecryptedInputs NONE = new DecryptedInputs(Map.of());

  public DecryptedInputs {
    files = Map.copyOf(files);
  }

  public boolean isEmpty() {
    return files.isEmpty();
  }
}
