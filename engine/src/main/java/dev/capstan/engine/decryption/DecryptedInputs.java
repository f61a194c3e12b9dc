package dev.capstan.engine.decryption;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The decrypted secretGenerator inputs of one build, by path in the artifact. The build sees
 * them; nothing else may: kustomize quotes a line it cannot read (an env file line that is not
 * {@code KEY=value}), so a build error is checked with {@link #quotedIn} before it is shown.
 */
public record DecryptedInputs(Map<String, byte[]> files) {
  /** Fragments shorter than this are not looked for on their own (only within their line). */
  private static final int MIN_FRAGMENT = 4;

  public static final DecryptedInputs NONE = new DecryptedInputs(Map.of());

  public DecryptedInputs {
    files = Map.copyOf(files);
  }

  public boolean isEmpty() {
    return files.isEmpty();
  }

  /**
   * The path of an input whose decrypted content {@code message} quotes (a line, or a value of a
   * line), if any. Quotes and backslashes are ignored on both sides, so that content quoted
   * with escapes is found too.
   */
  public Optional<String> quotedIn(String message) {
    if (message == null || files.isEmpty()) {
      return Optional.empty();
    }
    String text = normalized(message);
    for (Map.Entry<String, byte[]> file : new TreeMap<>(files).entrySet()) {
      for (String line : new String(file.getValue(), StandardCharsets.UTF_8).split("\\R")) {
        if (quotes(text, line) || quotes(text, valueOf(line))) {
          return Optional.of(file.getKey());
        }
      }
    }
    return Optional.empty();
  }

  private static boolean quotes(String text, String fragment) {
    String wanted = normalized(fragment).strip();
    return wanted.length() >= MIN_FRAGMENT && text.contains(wanted);
  }

  /** What follows the first '=' or ':' of a line (a dotenv, INI, YAML or JSON value). */
  private static String valueOf(String line) {
    int eq = line.indexOf('=');
    int colon = line.indexOf(':');
    int at = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
    return at < 0 ? "" : line.substring(at + 1);
  }

  private static String normalized(String s) {
    return s.replace("\\", "").replace("\"", "").replace("'", "");
  }
}
