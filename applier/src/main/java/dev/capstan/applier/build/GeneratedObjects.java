package dev.capstan.applier.build;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Runs {@code configMapGenerator} and {@code secretGenerator} entries: collects key/value pairs
 * from literals, files and env files, and creates, merges into or replaces the object.
 */
final class GeneratedObjects {
  private static final Pattern VALID_KEY = Pattern.compile("[-._a-zA-Z0-9]+");

  private final ArtifactRoot root;

  GeneratedObjects(ArtifactRoot root) {
    this.root = root;
  }

  void generate(List<Resource> resources, GeneratorSpec spec, Path directory) {
    Map<String, byte[]> pairs = collect(spec, directory);
    Resource existing = find(resources, spec);
    switch (spec.behavior()) {
      case CREATE -> {
        if (existing != null) {
          throw fail(spec, "an object named '" + spec.name() + "' already exists; use behavior merge or replace");
        }
        resources.add(create(spec, pairs));
      }
      case MERGE, REPLACE -> {
        if (existing == null) {
          throw fail(spec, "behavior " + spec.behavior().name().toLowerCase() + " needs an existing object named '" + spec.name() + "'");
        }
        boolean existingHash = existing.hashSuffix();
        update(existing, spec, pairs);
        // The object keeps its own naming: one read from a file never gets a hash suffix.
        existing.setHashSuffix(existingHash);
      }
    }
  }

  private Map<String, byte[]> collect(GeneratorSpec spec, Path directory) {
    Map<String, byte[]> pairs = new TreeMap<>();
    for (String literal : spec.literals()) {
      int eq = literal.indexOf('=');
      if (eq <= 0) {
        throw fail(spec, "literal '" + keyOnly(literal) + "' must be KEY=VALUE");
      }
      put(pairs, spec, literal.substring(0, eq), unquote(literal.substring(eq + 1)).getBytes(StandardCharsets.UTF_8));
    }
    for (String file : spec.files()) {
      int eq = file.indexOf('=');
      String key = eq > 0 ? file.substring(0, eq) : Path.of(file).getFileName().toString();
      String path = eq > 0 ? file.substring(eq + 1) : file;
      put(pairs, spec, key, root.readBytes(root.resolve(directory, path, spec.origin())));
    }
    for (String env : spec.envs()) {
      Path path = root.resolve(directory, env, spec.origin());
      EnvFile.parse(root.read(path), root.display(path))
          .forEach((k, v) -> put(pairs, spec, k, v.getBytes(StandardCharsets.UTF_8)));
    }
    return pairs;
  }

  private static void put(Map<String, byte[]> pairs, GeneratorSpec spec, String key, byte[] value) {
    if (!VALID_KEY.matcher(key).matches()) {
      throw fail(spec, "'" + key + "' is not a valid key (letters, digits, '-', '_' and '.')");
    }
    if (pairs.put(key, value) != null) {
      throw fail(spec, "key '" + key + "' is set more than once");
    }
  }

  private static Resource create(GeneratorSpec spec, Map<String, byte[]> pairs) {
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("apiVersion", "v1");
    object.put("kind", spec.kind() == GeneratorSpec.Kind.SECRET ? "Secret" : "ConfigMap");
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", spec.name());
    if (!spec.namespace().isEmpty()) {
      metadata.put("namespace", spec.namespace());
    }
    object.put("metadata", metadata);
    Resource resource = new Resource(object, spec.origin());
    update(resource, spec, pairs);
    if (spec.type() != null) {
      object.put("type", spec.type());
    }
    return resource;
  }

  /** Writes data, labels and annotations; REPLACE drops the data that was there. */
  private static void update(Resource resource, GeneratorSpec spec, Map<String, byte[]> pairs) {
    Map<String, Object> object = resource.object();
    if (spec.behavior() == GeneratorSpec.Behavior.REPLACE) {
      object.remove("data");
      object.remove("binaryData");
    }
    boolean secret = spec.kind() == GeneratorSpec.Kind.SECRET;
    pairs.forEach(
        (key, value) -> {
          String text = secret ? null : utf8(value);
          if (secret) {
            ObjectTree.mapAt(object, "data").put(key, Base64.getEncoder().encodeToString(value));
          } else if (text != null) {
            ObjectTree.mapAt(object, "data").put(key, text);
          } else {
            ObjectTree.mapAt(object, "binaryData").put(key, Base64.getEncoder().encodeToString(value));
          }
        });
    if (!spec.labels().isEmpty()) {
      ObjectTree.mapAt(object, "metadata", "labels").putAll(new TreeMap<>(spec.labels()));
    }
    if (!spec.annotations().isEmpty()) {
      ObjectTree.mapAt(object, "metadata", "annotations").putAll(new TreeMap<>(spec.annotations()));
    }
    if (spec.immutable()) {
      object.put("immutable", true);
    }
    resource.setHashSuffix(spec.hashSuffix());
  }

  private static Resource find(List<Resource> resources, GeneratorSpec spec) {
    String kind = spec.kind() == GeneratorSpec.Kind.SECRET ? "Secret" : "ConfigMap";
    for (Resource resource : resources) {
      if (resource.kind().equals(kind)
          && resource.group().isEmpty()
          && resource.hadName(spec.name())
          && (spec.namespace().isEmpty() || spec.namespace().equals(resource.namespace()))) {
        return resource;
      }
    }
    return null;
  }

  private static String utf8(byte[] value) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(value))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** One pair of matching quotes around a literal's value is not part of the value. */
  private static String unquote(String value) {
    if (value.length() >= 2
        && (value.startsWith("\"") && value.endsWith("\"")
            || value.startsWith("'") && value.endsWith("'"))) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  /** Only the key goes into messages: literal values may be secret. */
  private static String keyOnly(String literal) {
    int eq = literal.indexOf('=');
    return eq < 0 ? literal : literal.substring(0, eq);
  }

  private static BuildFailure fail(GeneratorSpec spec, String problem) {
    String kind = spec.kind() == GeneratorSpec.Kind.SECRET ? "secretGenerator" : "configMapGenerator";
    return new BuildFailure(
        BuildErrorKind.INVALID_GENERATOR, spec.origin(), kind + " '" + spec.name() + "': " + problem);
  }
}
