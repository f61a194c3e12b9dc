package dev.capstan.engine.webhook;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A secret kept in a file, e.g. a mounted Secret; surrounding whitespace is not part of it. */
record FileSecret(Path file) implements SecretSource {

  @Override
  public byte[] secret() {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (text.isEmpty()) {
        throw new IllegalStateException("secret file " + file + " is empty");
      }
      return text.getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(
          "secret file " + file + " cannot be read: " + e.getClass().getSimpleName());
    }
  }

  @Override
  public String describe() {
    return "file " + file;
  }
}
