package dev.capstan.decryption;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * dotenv and INI documents. Their sops metadata is flattened into keys such as {@code
 * age__list_0__map_enc} (with a {@code sops_} prefix in dotenv, in a {@code [sops]} section in
 * INI), with newlines written as {@code \n}.
 */
final class FlatFormats {
  private static final String DOTENV_PREFIX = "sops_";

  private FlatFormats() {}

  /** KEY=VALUE lines ({@code \n} in a value is a newline), {@code #} lines are comments. */
  static Document readDotenv(byte[] content) {
    Map<String, Object> branch = new LinkedHashMap<>();
    Map<String, String> flat = new LinkedHashMap<>();
    int comments = 0;
    for (String line : new String(content, StandardCharsets.UTF_8).split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("#")) {
        branch.put("#" + comments++, new Comment(line.substring(1)));
        continue;
      }
      int eq = line.indexOf('=');
      if (eq < 0) {
        throw new DecryptionException(
            DecryptionException.Problem.MALFORMED, "a line of the dotenv document has no '='");
      }
      String key = line.substring(0, eq);
      String value = line.substring(eq + 1).replace("\\n", "\n");
      if (key.startsWith(DOTENV_PREFIX)) {
        flat.put(key.substring(DOTENV_PREFIX.length()), value);
      } else {
        branch.put(key, value);
      }
    }
    return new Document(new ArrayList<>(List.of(branch)), unflatten(flat));
  }

  static byte[] writeDotenv(List<Object> branches) {
    StringBuilder out = new StringBuilder();
    appendLines(out, (Map<?, ?>) branches.get(0), "#", "=", v -> v.replace("\n", "\\n"));
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Sections of {@code key = value} lines; {@code #} and {@code ;} lines are comments. */
  static Document readIni(byte[] content) {
    Map<String, Object> branch = new LinkedHashMap<>();
    Map<String, Object> section = new LinkedHashMap<>();
    branch.put("DEFAULT", section);
    int comments = 0;
    for (String raw : new String(content, StandardCharsets.UTF_8).split("\\R")) {
      String line = raw.strip();
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("#") || line.startsWith(";")) {
        section.put("#" + comments++, new Comment(line.substring(1).strip()));
      } else if (line.startsWith("[") && line.endsWith("]")) {
        String name = line.substring(1, line.length() - 1).strip();
        section = new LinkedHashMap<>();
        branch.put(name, section);
      } else {
        int eq = delimiter(line);
        section.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
      }
    }
    Object sops = branch.remove("sops");
    Map<String, String> flat = new LinkedHashMap<>();
    if (sops instanceof Map<?, ?> map) {
      map.forEach(
          (k, v) -> {
            if (!(v instanceof Comment)) {
              flat.put(k.toString(), v.toString().replace("\\n", "\n"));
            }
          });
    }
    return new Document(new ArrayList<>(List.of(branch)), unflatten(flat));
  }

  static byte[] writeIni(List<Object> branches) {
    StringBuilder out = new StringBuilder();
    ((Map<?, ?>) branches.get(0))
        .forEach(
            (name, section) -> {
              Map<?, ?> entries = (Map<?, ?>) section;
              if (entries.isEmpty()) {
                return;
              }
              if (!"DEFAULT".equals(name)) {
                out.append('[').append(name).append("]\n");
              }
              appendLines(out, entries, "; ", " = ", v -> v);
              out.append('\n');
            });
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * One line per entry: a comment after {@code commentMark}, else the key, {@code separator} and
   * the value as {@code escape} writes it.
   */
  private static void appendLines(
      StringBuilder out,
      Map<?, ?> entries,
      String commentMark,
      String separator,
      UnaryOperator<String> escape) {
    entries.forEach(
        (key, value) -> {
          if (value instanceof Comment c) {
            out.append(commentMark).append(c.text()).append('\n');
          } else {
            out.append(key).append(separator).append(escape.apply(text(value))).append('\n');
          }
        });
  }

  private static int delimiter(String line) {
    int eq = line.indexOf('=');
    int colon = line.indexOf(':');
    int at = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
    if (at <= 0) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "a line of the INI document is neither a section, a comment nor key = value");
    }
    return at;
  }

  private static String text(Object value) {
    return value instanceof byte[] raw
        ? new String(raw, StandardCharsets.UTF_8)
        : String.valueOf(value);
  }

  /** {@code age__list_0__map_enc = x} → {@code {age: [{enc: x}]}}. */
  static Map<String, Object> unflatten(Map<String, String> flat) {
    Map<String, Object> root = new LinkedHashMap<>();
    flat.forEach((key, value) -> put(root, key, value));
    return root;
  }

  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> root, String key, String value) {
    String[] parts = key.split("__(?=(list|map)_)");
    Object container = root;
    String pending = parts[0];
    for (int i = 1; i < parts.length; i++) {
      boolean list = parts[i].startsWith("list_");
      String token = parts[i].substring(list ? 5 : 4);
      Object next = child(container, pending, list);
      container = next;
      pending = token;
    }
    if (container instanceof Map<?, ?> map) {
      ((Map<String, Object>) map).put(pending, value);
    } else {
      List<Object> list = (List<Object>) container;
      int index = index(pending);
      while (list.size() <= index) {
        list.add(null);
      }
      list.set(index, value);
    }
  }

  @SuppressWarnings("unchecked")
  private static Object child(Object container, String name, boolean list) {
    if (container instanceof Map<?, ?> m) {
      Map<String, Object> map = (Map<String, Object>) m;
      return map.computeIfAbsent(name, k -> list ? new ArrayList<>() : new LinkedHashMap<>());
    }
    List<Object> items = (List<Object>) container;
    int index = index(name);
    while (items.size() <= index) {
      items.add(null);
    }
    if (items.get(index) == null) {
      items.set(index, list ? new ArrayList<>() : new LinkedHashMap<String, Object>());
    }
    return items.get(index);
  }

  private static int index(String token) {
    try {
      int index = Integer.parseInt(token);
      if (index < 0 || index > 1000) {
        throw new NumberFormatException();
      }
      return index;
    } catch (NumberFormatException e) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "a flattened sops metadata key has a bad list index");
    }
  }
}
