package dev.capstan.decryption;

import dev.capstan.kube.BoundedYaml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
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
 *
 * <p>A decrypted file feeds a secretGenerator's Secret and nothing else: a configMapGenerator that
 * reads a SOPS-encrypted file is refused, and so is any other reference of a kustomization (a
 * resource, a patch, a replacement, a generator or transformer configuration) to a file decrypted
 * for the build, which would otherwise hand kustomize its plaintext. Every file read here is
 * bounded ({@link ArtifactReads}) and every kustomization parsed with {@link BoundedYaml}.
 */
public final class GeneratorInputs {
  private static final List<String> KUSTOMIZATION_FILES =
      List.of("kustomization.yaml", "kustomization.yml", "Kustomization");
  private static final int MAX_KUSTOMIZATIONS = 1000;
  private static final BoundedYaml YAML = new BoundedYaml();

  /** Fields whose entries are files kustomize reads (other than generators' inputs). */
  private static final List<String> FILE_LISTS =
      List.of(
          "resources",
          "components",
          "patchesStrategicMerge",
          "generators",
          "transformers",
          "validators",
          "configurations",
          "crds");

  /** Fields whose entries are mappings with a {@code path} kustomize reads. */
  private static final List<String> PATH_LISTS =
      List.of("patches", "patchesJson6902", "replacements");

  /** Fields of builtin plugin configurations (generators:, transformers:) that name files. */
  private static final List<String> CONFIG_FILE_FIELDS = List.of("files", "envs", "env", "path");

  private final Path root;
  private final SopsDecryptor decryptor;
  private final DecryptionKeys keys;
  private final ArtifactReads reads;
  private final Map<String, byte[]> decrypted = new LinkedHashMap<>();
  private final Set<Path> visited = new HashSet<>();
  private final List<Reference> references = new ArrayList<>();

  /** A file that a kustomization has kustomize read, other than as a secretGenerator's input. */
  private record Reference(String name, String entry, String where) {}

  private GeneratorInputs(Path root, SopsDecryptor decryptor, DecryptionKeys keys) {
    this.root = root;
    this.decryptor = decryptor;
    this.keys = keys;
    this.reads = new ArtifactReads(root);
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
    inputs.refuseOtherReadersOfDecryptedFiles();
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
    if (!(parse(file) instanceof Map<?, ?> kustomization)) {
      return; // the build reports a kustomization that is not a mapping, or not YAML, itself
    }
    String where = relative(file);
    for (Object generator : list(kustomization.get("secretGenerator"))) {
      if (generator instanceof Map<?, ?> g) {
        for (Input input : inputs(g)) {
          decryptIfEncrypted(inside(dir, input.path(), where), input.format());
        }
      }
    }
    for (Object generator : list(kustomization.get("configMapGenerator"))) {
      if (generator instanceof Map<?, ?> g) {
        for (Input input : inputs(g)) {
          refuseIfEncrypted(inside(dir, input.path(), where), input, g.get("name"), where);
        }
      }
    }
    collectReferences(dir, kustomization, where);
    List<Object> next = new ArrayList<>(list(kustomization.get("resources")));
    next.addAll(list(kustomization.get("components")));
    for (Object resource : next) {
      String ref = String.valueOf(resource);
      if (isRemote(ref)) {
        continue; // refused by the build
      }
      Path target = resolve(dir, ref);
      if (target != null && target.startsWith(root)) {
        visit(target);
      }
    }
  }

  /** The kustomization, or null when the build will report it (not YAML within the bounds). */
  private Object parse(Path file) throws IOException {
    byte[] content = reads.read(file, ArtifactReads.MAX_KUSTOMIZATION_BYTES, "a kustomization");
    try {
      return YAML.readOne(new String(content, StandardCharsets.UTF_8));
    } catch (BoundedYaml.YamlProblem e) {
      return null;
    }
  }

  /** One file a generator reads: its path, and the format it is decrypted in. */
  private record Input(String entry, String path, SopsFormat format) {}

  /**
   * A generator's {@code files} ({@code key=path}: format by the key) and {@code envs}/{@code env}.
   */
  private static List<Input> inputs(Map<?, ?> generator) {
    List<Input> inputs = new ArrayList<>();
    for (Object source : list(generator.get("files"))) {
      String entry = String.valueOf(source);
      int eq = entry.indexOf('=');
      String key = eq < 0 ? entry : entry.substring(0, eq);
      inputs.add(
          new Input(entry, eq < 0 ? entry : entry.substring(eq + 1), SopsFormat.forPath(key)));
    }
    List<Object> envs = new ArrayList<>(list(generator.get("envs")));
    if (generator.get("env") instanceof String env) {
      envs.add(env);
    }
    for (Object env : envs) {
      SopsFormat format = SopsFormat.forPath(String.valueOf(env));
      inputs.add(
          new Input(
              String.valueOf(env),
              String.valueOf(env),
              format == SopsFormat.BINARY ? SopsFormat.DOTENV : format));
    }
    return inputs;
  }

  private void decryptIfEncrypted(Path file, SopsFormat format) throws IOException {
    String name = relative(file);
    if (decrypted.containsKey(name) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return; // a missing file is the build's to report
    }
    byte[] content =
        reads.read(file, SopsDecryptor.MAX_DOCUMENT_BYTES, "a secretGenerator's input");
    if (!format.isEncrypted(content)) {
      return;
    }
    try {
      decrypted.put(name, decryptor.decrypt(content, format, keys).content());
    } catch (DecryptionException e) {
      throw e.in("file '" + name + "'");
    }
  }

  private void refuseIfEncrypted(Path file, Input input, Object generator, String where)
      throws IOException {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    byte[] content =
        reads.read(file, SopsDecryptor.MAX_DOCUMENT_BYTES, "a configMapGenerator's input");
    if (input.format().isEncrypted(content)
        || SopsFormat.forPath(input.path()).isEncrypted(content)) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "configMapGenerator '"
              + generator
              + "' in "
              + where
              + " reads '"
              + input.entry()
              + "', which is SOPS-encrypted: decrypted values go only into a secretGenerator's"
              + " Secret");
    }
  }

  /** The files this kustomization has kustomize read besides its generators' inputs. */
  private void collectReferences(Path dir, Map<?, ?> kustomization, String where)
      throws IOException {
    for (String field : FILE_LISTS) {
      for (Object entry : list(kustomization.get(field))) {
        if (entry instanceof String ref && !ref.contains("\n")) { // else an inline patch
          reference(dir, ref, field + " of " + where);
        }
      }
    }
    for (String field : PATH_LISTS) {
      for (Object entry : list(kustomization.get(field))) {
        if (entry instanceof Map<?, ?> m && m.get("path") instanceof String ref) {
          reference(dir, ref, field + " of " + where);
        }
      }
    }
    if (kustomization.get("openapi") instanceof Map<?, ?> openapi
        && openapi.get("path") instanceof String ref) {
      reference(dir, ref, "openapi of " + where);
    }
    for (String field : List.of("generators", "transformers", "validators")) {
      for (Object entry : list(kustomization.get(field))) {
        if (entry instanceof String ref && !ref.contains("\n")) {
          configurationReferences(dir, ref, field + " of " + where);
        }
      }
    }
  }

  /**
   * The files that a builtin plugin's configuration (a file listed under generators: or
   * transformers:) has kustomize read, relative to the kustomization as kustomize resolves them.
   */
  private void configurationReferences(Path dir, String ref, String where) throws IOException {
    Path file = resolve(dir, ref);
    if (isRemote(ref)
        || file == null
        || !file.startsWith(root)
        || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    byte[] content = reads.read(file, ArtifactReads.MAX_KUSTOMIZATION_BYTES, "a configuration");
    List<BoundedYaml.Document> documents;
    try {
      documents = YAML.readAll(new String(content, StandardCharsets.UTF_8));
    } catch (BoundedYaml.YamlProblem e) {
      return; // the build reports it
    }
    String in = relative(file) + " (" + where + ")";
    for (BoundedYaml.Document document : documents) {
      if (document.value() instanceof Map<?, ?> config
          && !"SecretGenerator".equals(config.get("kind"))) {
        for (String field : CONFIG_FILE_FIELDS) {
          Object value = config.get(field);
          for (Object entry : value instanceof String s ? List.of(s) : list(value)) {
            String text = String.valueOf(entry);
            int eq = text.indexOf('=');
            reference(dir, "files".equals(field) && eq >= 0 ? text.substring(eq + 1) : text, in);
          }
        }
      }
    }
  }

  private void reference(Path dir, String ref, String where) {
    if (isRemote(ref)) {
      return;
    }
    Path target = resolve(dir, ref);
    if (target != null && target.startsWith(root)) {
      references.add(new Reference(relative(target), ref, where));
    }
  }

  private void refuseOtherReadersOfDecryptedFiles() {
    for (Reference reference : references) {
      if (decrypted.containsKey(reference.name())) {
        throw new DecryptionException(
            DecryptionException.Problem.MALFORMED,
            "'"
                + reference.entry()
                + "' in "
                + reference.where()
                + " is a SOPS-encrypted secretGenerator input: decrypted values go only into a"
                + " secretGenerator's Secret");
      }
    }
  }

  /** {@code ref} resolved against {@code dir}; refused when it leaves the artifact. */
  private Path inside(Path dir, String ref, String where) throws IOException {
    Path target = resolve(dir, ref);
    if (target == null) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED, "an entry in " + where + " is not a valid path");
    }
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

  /** {@code ref} against {@code dir}, normalized; null when it is no path (a NUL character). */
  private static Path resolve(Path dir, String ref) {
    try {
      return dir.resolve(ref).normalize();
    } catch (InvalidPathException e) {
      return null;
    }
  }

  private static boolean isRemote(String ref) {
    return ref.contains("://") || ref.startsWith("git@") || ref.startsWith("github.com/");
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
