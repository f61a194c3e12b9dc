package dev.capstan.engine.webhook;

import dev.capstan.kube.BoundedYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The receivers of {@code capstan run --webhook-config FILE}. The file (in-cluster, a mounted
 * ConfigMap) reads:
 *
 * <pre>
 * receivers:
 * - name: podinfo              # served at /hook/podinfo
 *   type: github               # github | gitlab | generic
 *   events: [push]             # optional; defaults: github [push],
 *                              # gitlab [Push Hook, Tag Push Hook]
 *   secretRef:                 # a Secret's key (default key: token) ...
 *     namespace: capstan-system
 *     name: podinfo-webhook
 *   # secretFile: /etc/capstan/webhook/podinfo   ... or a file holding the secret
 *   resources:                 # GitRepositories whose fetch is requested
 *   - namespace: apps
 *     name: podinfo
 *   - namespace: apps
 *     matchLabels: {team: web}
 * </pre>
 */
public record ReceiverConfig(List<ReceiverSpec> receivers) {
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9._-]{0,61}[a-z0-9])?");
  private static final Set<String> RECEIVER_FIELDS =
      Set.of("name", "type", "events", "secretRef", "secretFile", "resources");

  public ReceiverConfig {
    receivers = List.copyOf(receivers);
  }

  /** Reads and validates a configuration file; errors name the file, the receiver and the field. */
  public static ReceiverConfig load(Path file) {
    try {
      return parse(Files.readString(file), file.toString());
    } catch (IOException e) {
      throw new InvalidReceiverConfigException(
          "webhook config " + file + ": cannot be read: " + e.getMessage());
    }
  }

  static ReceiverConfig parse(String yaml, String origin) {
    Object root;
    try {
      root = new BoundedYaml().readOne(yaml);
    } catch (BoundedYaml.YamlProblem e) {
      throw new InvalidReceiverConfigException(
          "webhook config "
              + origin
              + ": not valid YAML: "
              + e.problem()
              + (e.line() > 0 ? " (line " + e.line() + ")" : ""));
    }
    Fields top = new Fields(origin, "webhook config " + origin, root);
    List<ReceiverSpec> receivers = new ArrayList<>();
    Set<String> names = new HashSet<>();
    List<Object> items = top.list("receivers", true);
    for (int i = 0; i < items.size(); i++) {
      ReceiverSpec spec =
          receiver(
              new Fields(
                  origin, "webhook config " + origin + ": receivers[" + i + "]", items.get(i)));
      if (!names.add(spec.name())) {
        throw new InvalidReceiverConfigException(
            "webhook config "
                + origin
                + ": receivers["
                + i
                + "]: name '"
                + spec.name()
                + "' is used by an earlier receiver");
      }
      receivers.add(spec);
    }
    return new ReceiverConfig(receivers);
  }

  private static ReceiverSpec receiver(Fields f) {
    f.onlyKnown(RECEIVER_FIELDS);
    String name = f.string("name", true);
    if (!NAME.matcher(name).matches()) {
      throw f.error(
          "name '"
              + name
              + "' must be lower-case letters, digits, '.', '_' or '-' (it is a URL path)");
    }
    Fields named = f.renamed(f.where() + " (" + name + ")");
    String typeText = named.string("type", true);
    ReceiverType type =
        Arrays.stream(ReceiverType.values())
            .filter(t -> t.configName().equals(typeText))
            .findFirst()
            .orElseThrow(
                () ->
                    named.error(
                        "type '"
                            + typeText
                            + "' is not one of "
                            + Arrays.stream(ReceiverType.values())
                                .map(ReceiverType::configName)
                                .collect(Collectors.joining(", "))));
    List<String> events = named.list("events", false).stream().map(String::valueOf).toList();
    if (events.isEmpty()) {
      events = type.defaultEvents();
    }
    return new ReceiverSpec(name, type, events, secret(named), resources(named));
  }

  private static ReceiverSpec.SecretLocation secret(Fields f) {
    String file = f.string("secretFile", false);
    Object ref = f.raw("secretRef");
    if ((file == null) == (ref == null)) {
      throw f.error("needs exactly one of secretRef or secretFile");
    }
    if (file != null) {
      return new ReceiverSpec.SecretLocation(file, null, null, null);
    }
    Fields r = new Fields(f.origin(), f.where() + ": secretRef", ref);
    r.onlyKnown(Set.of("namespace", "name", "key"));
    String key = r.string("key", false);
    return new ReceiverSpec.SecretLocation(
        null, r.string("namespace", true), r.string("name", true), key == null ? "token" : key);
  }

  private static List<ResourceSelector> resources(Fields f) {
    List<Object> items = f.list("resources", true);
    if (items.isEmpty()) {
      throw f.error("resources is empty; name at least one GitRepository");
    }
    List<ResourceSelector> selectors = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      Fields r = new Fields(f.origin(), f.where() + ": resources[" + i + "]", items.get(i));
      r.onlyKnown(Set.of("kind", "apiVersion", "namespace", "name", "matchLabels"));
      String kind = r.string("kind", false);
      if (kind != null && !kind.equals("GitRepository")) {
        throw r.error("kind '" + kind + "' is not supported; only GitRepository");
      }
      String name = r.string("name", false);
      Map<String, String> labels = r.stringMap("matchLabels");
      if ((name == null) == labels.isEmpty()) {
        throw r.error("needs exactly one of name or matchLabels");
      }
      selectors.add(new ResourceSelector(r.string("namespace", true), name, labels));
    }
    return selectors;
  }

  /** A YAML mapping read with error messages that say where. */
  private record Fields(String origin, String where, Map<String, Object> map) {
    @SuppressWarnings("unchecked")
    Fields(String origin, String where, Object node) {
      this(origin, where, asMap(where, node));
    }

    private static Map<String, Object> asMap(String where, Object node) {
      if (!(node instanceof Map<?, ?> m)) {
        throw new InvalidReceiverConfigException(where + ": expected a mapping");
      }
      Map<String, Object> copy = new LinkedHashMap<>();
      m.forEach((k, v) -> copy.put(String.valueOf(k), v));
      return copy;
    }

    Fields renamed(String newWhere) {
      return new Fields(origin, newWhere, map);
    }

    InvalidReceiverConfigException error(String message) {
      return new InvalidReceiverConfigException(where + ": " + message);
    }

    void onlyKnown(Set<String> known) {
      for (String key : map.keySet()) {
        if (!known.contains(key)) {
          throw error(
              "unknown field '"
                  + key
                  + "' (known: "
                  + known.stream().sorted().collect(Collectors.joining(", "))
                  + ")");
        }
      }
    }

    Object raw(String key) {
      return map.get(key);
    }

    String string(String key, boolean required) {
      Object value = map.get(key);
      if (value == null || (value instanceof String s && s.isBlank())) {
        if (required) {
          throw error(key + " is required");
        }
        return null;
      }
      if (value instanceof Map || value instanceof List) {
        throw error(key + " must be a string");
      }
      return String.valueOf(value).trim();
    }

    List<Object> list(String key, boolean required) {
      Object value = map.get(key);
      if (value == null) {
        if (required) {
          throw error(key + " is required");
        }
        return List.of();
      }
      if (!(value instanceof List<?> l)) {
        throw error(key + " must be a list");
      }
      return new ArrayList<>(l);
    }

    Map<String, String> stringMap(String key) {
      Object value = map.get(key);
      if (value == null) {
        return Map.of();
      }
      if (!(value instanceof Map<?, ?> m)) {
        throw error(key + " must be a mapping of label names to values");
      }
      Map<String, String> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
      return out;
    }
  }

  /** Receiver names, for messages. */
  @Override
  public String toString() {
    return receivers.stream()
        .map(r -> r.name() + "(" + r.type().name().toLowerCase(Locale.ROOT) + ")")
        .collect(Collectors.joining(", "));
  }
}
