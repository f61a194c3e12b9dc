package dev.capstan.cli.fetch;

import dev.capstan.kube.SecretEntries;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads the credentials for {@code capstan fetch --secret-file}: either a Kubernetes Secret
 * manifest in YAML or JSON ({@code data} base64-encoded and/or {@code stringData} plain), or a
 * plain file of {@code key=value} lines, where {@code key=@path} takes the value from the file at
 * {@code path} (relative to the secret file), for multi-line values such as private keys.
 */
public final class SecretFile {

  /** Bad secret file content; the message names the file and the problem, never a value. */
  public static final class InvalidSecretFile extends Exception {
    InvalidSecretFile(String message) {
      super(message, null, false, false);
    }
  }

  private SecretFile() {}

  public static Map<String, byte[]> read(Path file) throws InvalidSecretFile {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidSecretFile(
          "cannot read secret file " + file + ": " + e.getClass().getSimpleName());
    }
    return looksLikeManifest(text) ? fromManifest(file, text) : fromKeyValues(file, text);
  }

  static boolean looksLikeManifest(String text) {
    String t = text.stripLeading();
    return t.startsWith("{")
        || t.startsWith("---")
        || text.lines()
            .anyMatch(
                l ->
                    l.startsWith("kind:")
                        || l.startsWith("apiVersion:")
                        || l.startsWith("data:")
                        || l.startsWith("stringData:"));
  }

  private static Map<String, byte[]> fromManifest(Path file, String text) throws InvalidSecretFile {
    Object doc;
    try {
      // The operator's own file, read once by a short-lived command: the parser's default bounds
      // (aliases, length) suffice, and a stack overflow ends in the same clear message.
      doc =
          new Load(LoadSettings.builder().setAllowDuplicateKeys(false).build())
              .loadFromString(text);
    } catch (YamlEngineException | StackOverflowError e) {
      throw new InvalidSecretFile("secret file " + file + " is not valid YAML or JSON");
    }
    if (!(doc instanceof Map<?, ?> manifest)) {
      throw new InvalidSecretFile("secret file " + file + " does not hold a Secret object");
    }
    Object kind = manifest.get("kind");
    if (kind != null && !"Secret".equals(kind)) {
      throw new InvalidSecretFile("secret file " + file + " holds a " + kind + ", not a Secret");
    }
    Map<String, String> data = new LinkedHashMap<>();
    // A YAML block may wrap a long value over lines, as kubectl accepts.
    section(file, manifest, "data").forEach((k, v) -> data.put(k, v.replaceAll("\\s", "")));
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(nameOf(manifest, file))
            .endMetadata()
            .withData(data)
            .withStringData(section(file, manifest, "stringData"))
            .build();
    try {
      return new LinkedHashMap<>(SecretEntries.of(secret).values());
    } catch (SecretUnavailable e) {
      throw new InvalidSecretFile("secret file " + file + ": " + e.getMessage());
    }
  }

  /** The Secret's own name, else the file's, to name it in messages. */
  private static String nameOf(Map<?, ?> manifest, Path file) {
    if (manifest.get("metadata") instanceof Map<?, ?> metadata
        && metadata.get("name") instanceof String name) {
      return name;
    }
    return String.valueOf(file.getFileName());
  }

  private static Map<String, String> section(Path file, Map<?, ?> manifest, String name)
      throws InvalidSecretFile {
    Object value = manifest.get(name);
    if (value == null) {
      return Map.of();
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new InvalidSecretFile("secret file " + file + ": " + name + " is not a map");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (var e : map.entrySet()) {
      if (e.getValue() == null || e.getValue() instanceof Map || e.getValue() instanceof Iterable) {
        throw new InvalidSecretFile(
            "secret file " + file + ": " + name + "." + e.getKey() + " is not a string");
      }
      out.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
    }
    return out;
  }

  private static Map<String, byte[]> fromKeyValues(Path file, String text)
      throws InvalidSecretFile {
    Map<String, byte[]> data = new LinkedHashMap<>();
    int lineNo = 0;
    for (String line : text.split("\n", -1)) {
      lineNo++;
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      int eq = l.indexOf('=');
      if (eq <= 0) {
        throw new InvalidSecretFile(
            "secret file " + file + " line " + lineNo + ": expected key=value");
      }
      String key = l.substring(0, eq).strip();
      String value = l.substring(eq + 1);
      data.put(
          key,
          value.startsWith("@")
              ? readReferenced(file, key, value.substring(1))
              : value.getBytes(StandardCharsets.UTF_8));
    }
    return data;
  }

  private static byte[] readReferenced(Path file, String key, String path)
      throws InvalidSecretFile {
    Path base = file.toAbsolutePath().getParent();
    Path target = base.resolve(path);
    try {
      return Files.readAllBytes(target);
    } catch (IOException e) {
      throw new InvalidSecretFile(
          "secret file " + file + ": cannot read " + target + " for key '" + key + "'");
    }
  }
}
