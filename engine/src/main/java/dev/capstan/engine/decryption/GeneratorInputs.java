package dev.capstan.engine.decryption;

import dev.capstan.health.yaml.BoundedYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The SOPS-encrypted files that the secretGenerators of a build read, decrypted, as Flux finds
 * them: the kustomization of the path, then those of its resources and components that are
 * directories, recursively; in each, every secretGenerator's {@code files} ({@code key=path} or
 * {@code path}, format by the key's name) and {@code envs} (dotenv unless named .yaml, .json or
 * .ini). Files that are not SOPS-encrypted are left alone. Every path must stay inside the
 * artifact; nothing is written anywhere: the result is the files' plaintext by path, for the
 * build's own in-memory copy of the artifact.
 */
public final class GeneratorInputs {
  private static final List<String> KUSTOMIZATION_FILES =
      List.of("kustomization.yaml", "kustomization.yml", "Kustomization");
  private static final int MAX_KUSTOMIZATIONS = 1000;
  private static final BoundedYaml YAML = new BoundedYaml();

  private final Path root;
  private final SopsDecryptor decryptor;
  private final DecryptionKeys keys;
  private final Map<String, byte[]> decrypted = new LinkedHashMap<>();
  private final Set<Path> visited = new HashSet<>();

  private GeneratorInputs(Path root, SopsDecryptor decryptor, DecryptionKeys keys) {
    this.root = root;
    this.decryptor = decryptor;
    this.keys = keys;
  }

  /**
   * The decrypted generator inputs of {@code path} (and of the Kustomization's extra {@code
   * components}, relative to it), by path relative to {@code root}.
   *
   * @throws DecryptionException naming the file (its path in the artifact) that failed
   */
  public static DecryptedInputs decrypt(
      Path root, String path, List<String> components, SopsDecryptor decryptor, DecryptionKeys keys)
      throws IOException {
    GeneratorInputs inputs = new GeneratorInputs(root.toRealPath(), decryptor, keys);
    Path start =
        inputs.inside(inputs.root, path == null || path.isEmpty() ? "." : path, "spec.path");
    inputs.visit(start);
    for (String component : components) {
      inputs.visit(inputs.inside(start, component, "spec.components"));
    }
    return new DecryptedInputs(inputs.decrypted);
  }

  private void visit(Path dir) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !visited.add(dir)) {
      return;
    }
    if (visited.size() > MAX_KUSTOMIZATIONS) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "more than " + MAX_KUSTOMIZATIONS + " kustomizations to look through");
    }
    Path file = kustomizationFile(dir);
    if (file == null) {
      return;
    }
    Map<?, ?> kustomization;
    try {
      if (!(YAML.readOne(Files.readString(file)) instanceof Map<?, ?> read)) {
        return; // the build reports a kustomization that is not a mapping itself
      }
      kustomization = read;
    } catch (IOException | BoundedYaml.YamlProblem e) {
      return; // the build reports an unreadable kustomization itself
    }
    String where = relative(file);
    for (Object generator : list(kustomization.get("secretGenerator"))) {
      if (generator instanceof Map<?, ?> g) {
        for (Object source : list(g.get("files"))) {
          String entry = String.valueOf(source);
          int eq = entry.indexOf('=');
          String key = eq < 0 ? entry : entry.substring(0, eq);
          decryptIfEncrypted(
              inside(dir, eq < 0 ? entry : entry.substring(eq + 1), where),
              SopsFormat.forPath(key));
        }
        List<Object> envs = new ArrayList<>(list(g.get("envs")));
        if (g.get("env") instanceof String env) {
          envs.add(env);
        }
        for (Object env : envs) {
          SopsFormat format = SopsFormat.forPath(String.valueOf(env));
          decryptIfEncrypted(
              inside(dir, String.valueOf(env), where),
              format == SopsFormat.BINARY ? SopsFormat.DOTENV : format);
        }
      }
    }
    List<Object> next = new ArrayList<>(list(kustomization.get("resources")));
    next.addAll(list(kustomization.get("components")));
    for (Object resource : next) {
      String ref = String.valueOf(resource);
      if (ref.contains("://") || ref.startsWith("git@") || ref.startsWith("github.com/")) {
        continue; // remote: refused by the build
      }
      Path target = dir.resolve(ref).normalize();
      if (target.startsWith(root)) {
        visit(target);
      }
    }
  }

  private void decryptIfEncrypted(Path file, SopsFormat format) throws IOException {
    String name = relative(file);
    if (decrypted.containsKey(name) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return; // a missing file is the build's to report
    }
    if (Files.size(file) > SopsDecryptor.MAX_DOCUMENT_BYTES) {
      return; // not decrypted; too large to be a SOPS document the build should see decrypted
    }
    byte[] content = Files.readAllBytes(file);
    if (!format.isEncrypted(content)) {
      return;
    }
    try {
      decrypted.put(name, decryptor.decrypt(content, format, keys).content());
    } catch (DecryptionException e) {
      throw e.in("file '" + name + "'");
    }
  }

  /** {@code ref} resolved against {@code dir}; refused when it leaves the artifact. */
  private Path inside(Path dir, String ref, String where) throws IOException {
    Path target = dir.resolve(ref).normalize();
    if (Path.of(ref).isAbsolute() || !target.startsWith(root)) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "'" + ref + "' in " + where + " is outside the artifact");
    }
    Path real = Files.exists(target, LinkOption.NOFOLLOW_LINKS) ? target.toRealPath() : target;
    if (!real.startsWith(root)) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "'" + ref + "' in " + where + " is outside the artifact");
    }
    return target;
  }

  private static Path kustomizationFile(Path dir) {
    for (String name : KUSTOMIZATION_FILES) {
      Path file = dir.resolve(name);
      if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        return file;
      }
    }
    return null;
  }

  private String relative(Path file) {
    return root.relativize(file).toString();
  }

  private static List<?> list(Object value) {
    return value instanceof List<?> l ? l : List.of();
  }
}
