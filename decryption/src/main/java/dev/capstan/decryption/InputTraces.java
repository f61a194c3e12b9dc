package dev.capstan.decryption;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What decrypted secretGenerator inputs look like in a build's output, to find the objects that
 * hold them: a generated Secret's {@code data} holds a {@code files} input whole and an {@code
 * envs} line's value, base64-encoded; a patch or replacement that turns or copies them into another
 * object keeps that text. Only whole strings are compared, never substrings, so an object that
 * merely shares a word with a secret is not taken for one that holds it.
 */
public final class InputTraces {
  /** A whole input in plain text counts only from this length: "true" is in many objects. */
  private static final int MIN_PLAIN = 8;

  public static final InputTraces NONE = new InputTraces(Set.of());

  private final Set<String> traces;

  private InputTraces(Set<String> traces) {
    this.traces = Set.copyOf(traces);
  }

  public static InputTraces of(DecryptedInputs inputs) {
    Set<String> traces = new HashSet<>();
    Base64.Encoder b64 = Base64.getEncoder();
    for (byte[] content : inputs.files().values()) {
      if (content.length > 0) {
        traces.add(b64.encodeToString(content));
      }
      if (content.length >= MIN_PLAIN) {
        traces.add(new String(content, StandardCharsets.UTF_8)); // read whole as a plain value
      }
      for (String line : new String(content, StandardCharsets.UTF_8).split("\\R")) {
        int eq = line.indexOf('=');
        if (eq < 0) {
          continue;
        }
        for (String value : List.of(line.substring(eq + 1), line.substring(eq + 1).strip())) {
          if (!value.isEmpty()) {
            traces.add(b64.encodeToString(value.getBytes(StandardCharsets.UTF_8)));
          }
        }
      }
    }
    return new InputTraces(traces);
  }

  public boolean isEmpty() {
    return traces.isEmpty();
  }

  /** Whether any string of {@code object} (at any depth) is a trace of a decrypted input. */
  public boolean foundIn(Map<String, Object> object) {
    if (traces.isEmpty()) {
      return false;
    }
    Deque<Object> pending = new ArrayDeque<>();
    pending.push(object);
    while (!pending.isEmpty()) {
      Object node = pending.pop();
      if (node instanceof Map<?, ?> map) {
        map.values().stream().filter(v -> v != null).forEach(pending::push);
      } else if (node instanceof List<?> list) {
        list.stream().filter(v -> v != null).forEach(pending::push);
      } else if (node instanceof String text && traces.contains(text)) {
        return true;
      }
    }
    return false;
  }
}
