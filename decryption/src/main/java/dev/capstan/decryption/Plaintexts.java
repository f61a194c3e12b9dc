package dev.capstan.decryption;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one build decrypted, kept only to take it out of messages: kustomize turns a line of an env
 * file it cannot split into a key, and the API server quotes keys it refuses, so a build or apply
 * error may quote decrypted content. {@link #redact} replaces every quoted piece with {@code ***};
 * a message that still shows one after that is withheld whole.
 */
public final class Plaintexts {
  /** Pieces shorter than this are taken out only where quoted or bracketed on their own. */
  private static final int MIN_FREE = 4;

  private static final String MASK = "***";
  static final String WITHHELD = "the message is withheld because it quotes decrypted content";

  public static final Plaintexts NONE = new Plaintexts(List.of());

  private final List<String> pieces;

  private Plaintexts(List<String> pieces) {
    // Longest first, so that a line is masked whole before the value within it.
    this.pieces =
        pieces.stream()
            .filter(p -> !p.isBlank())
            .distinct()
            .sorted(Comparator.comparingInt(String::length).reversed())
            .toList();
  }

  /** The lines of the decrypted generator inputs, and the value of each line. */
  public static Plaintexts of(DecryptedInputs inputs) {
    Set<String> pieces = new LinkedHashSet<>();
    for (byte[] content : inputs.files().values()) {
      for (String line : new String(content, StandardCharsets.UTF_8).split("\\R")) {
        pieces.add(line.strip());
        pieces.add(valueOf(line));
      }
    }
    return new Plaintexts(List.copyOf(pieces));
  }

  /**
   * Values that came from Secrets (a HelmRelease's {@code valuesFrom}, say), and each of their
   * lines: a message quoting one has it masked as a decrypted piece is.
   */
  public static Plaintexts ofValues(Collection<String> values) {
    Set<String> pieces = new LinkedHashSet<>();
    for (String value : values) {
      if (value != null) {
        pieces.add(value);
        value.lines().forEach(l -> pieces.add(l.strip()));
      }
    }
    return new Plaintexts(List.copyOf(pieces));
  }

  /** These and {@code values}, each with its lines, as {@link #ofValues} takes them. */
  public Plaintexts andValues(Collection<String> values) {
    List<String> more = new ArrayList<>(pieces);
    more.addAll(ofValues(values).pieces);
    return new Plaintexts(more);
  }

  /**
   * These and the values that were encrypted in {@code encrypted} and are plain in {@code
   * decrypted}.
   */
  public Plaintexts and(Map<String, Object> encrypted, Map<String, Object> decrypted) {
    List<String> more = new ArrayList<>(pieces);
    collect(encrypted, decrypted, more);
    return new Plaintexts(more);
  }

  public boolean isEmpty() {
    return pieces.isEmpty();
  }

  /** {@code message} with every decrypted piece it quotes masked; withheld if one still shows. */
  public String redact(String message) {
    if (message == null || pieces.isEmpty()) {
      return message;
    }
    String out = message;
    for (String piece : pieces) {
      for (String form : List.of(piece, goQuoted(piece))) {
        if (piece.length() >= MIN_FREE) {
          out = out.replace(form, MASK);
        } else {
          for (String[] around :
              new String[][] {{"\"", "\""}, {"'", "'"}, {"[", "]"}, {"\\\"", "\\\""}}) {
            out = out.replace(around[0] + form + around[1], around[0] + MASK + around[1]);
          }
        }
      }
    }
    String loose = loose(out);
    for (String piece : pieces) {
      String wanted = loose(piece).strip();
      if (wanted.length() >= MIN_FREE && loose.contains(wanted)) {
        return WITHHELD;
      }
    }
    return out;
  }

  /**
   * {@link #redact} of a text of YAML lines (a diff of objects), where a piece too short to be
   * masked wherever it shows is masked too when it is a line's whole value ({@code pin: 123},
   * {@code - 123}): that is how a diff quotes it.
   */
  public String redactLines(String text) {
    if (text == null || pieces.isEmpty()) {
      return text;
    }
    List<String> shortPieces = pieces.stream().filter(p -> p.length() < MIN_FREE).toList();
    if (shortPieces.isEmpty()) {
      return redact(text);
    }
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      lines[i] = maskWholeValue(lines[i], shortPieces);
    }
    return redact(String.join("\n", lines));
  }

  private static String maskWholeValue(String line, List<String> shortPieces) {
    String body = line.stripTrailing();
    for (String piece : shortPieces) {
      for (String before : List.of(": ", "- ")) {
        if (body.endsWith(before + piece)) {
          return body.substring(0, body.length() - piece.length()) + MASK;
        }
      }
    }
    return line;
  }

  @SuppressWarnings("unchecked")
  private static void collect(Object encrypted, Object decrypted, List<String> into) {
    if (encrypted instanceof Map<?, ?> e && decrypted instanceof Map<?, ?> d) {
      e.forEach((k, v) -> collect(v, d.get(k), into));
    } else if (encrypted instanceof List<?> e && decrypted instanceof List<?> d) {
      for (int i = 0; i < Math.min(e.size(), d.size()); i++) {
        collect(e.get(i), d.get(i), into);
      }
    } else if (encrypted instanceof String e && e.startsWith("ENC[") && decrypted != null) {
      String plain = String.valueOf(decrypted);
      into.add(plain);
      plain.lines().forEach(l -> into.add(l.strip()));
      decoded(plain).lines().forEach(l -> into.add(l.strip()));
    }
  }

  /** The UTF-8 text of a base64 value (a Secret's data), or "" when it is not one. */
  private static String decoded(String value) {
    try {
      return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  /** What follows the first '=' or ':' of a line (a dotenv, INI, YAML or JSON value), unquoted. */
  private static String valueOf(String line) {
    int eq = line.indexOf('=');
    int colon = line.indexOf(':');
    int at = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
    String value = at < 0 ? "" : line.substring(at + 1).strip();
    if (value.endsWith(",")) {
      value = value.substring(0, value.length() - 1).strip();
    }
    if (value.length() >= 2
        && (value.startsWith("\"") && value.endsWith("\"")
            || value.startsWith("'") && value.endsWith("'"))) {
      value = value.substring(1, value.length() - 1);
    }
    return value;
  }

  /** As Go's %q writes a string's quotes and backslashes. */
  private static String goQuoted(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private static String loose(String s) {
    return s.replace("\\", "").replace("\"", "").replace("'", "");
  }
}
