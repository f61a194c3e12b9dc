package dev.capstan.decryption;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decrypts SOPS documents with age and OpenPGP keys, reimplemented from SOPS' format: the data key
 * is recovered from a recipient's copy in the {@code sops} metadata, every value is decrypted with
 * AES-256-GCM bound to its path, and the MAC over all values is checked.
 *
 * <p>Which values are encrypted is decided as SOPS decides it, by the suffix and regex rules in the
 * metadata. With {@code encrypted_comment_regex} or {@code unencrypted_comment_regex} the rule
 * depends on YAML comments, which the parser does not keep; there a value counts as encrypted when
 * it is in SOPS' encrypted form, which gives the same values and MAC for any document SOPS wrote (a
 * changed value still fails its own authentication or the MAC).
 *
 * <p>Every document is hostile until its MAC holds, and the MAC covers only the values: the
 * metadata (its rules) and the shape of the document are bounded before any work over them ({@link
 * DocumentBounds}, {@link RegexBudget}); the MAC entry is authenticated before any value is
 * decrypted. One decryptor serves one build: the regex work of all its documents shares one budget.
 */
public final class SopsDecryptor {
  /** Largest document decrypted; Flux's limit. */
  public static final int MAX_DOCUMENT_BYTES = 5 << 20;

  private final RegexBudget budget = RegexBudget.forDecryptor();

  /**
   * Decrypts a whole document and verifies its MAC.
   *
   * @throws DecryptionException when a key is missing, the document is malformed or changed
   */
  public DecryptedDocument decrypt(byte[] content, SopsFormat format, DecryptionKeys keys) {
    if (content.length > MAX_DOCUMENT_BYTES) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "the document is larger than " + (MAX_DOCUMENT_BYTES >> 20) + " MiB");
    }
    Document document = read(content, format);
    TreeDecryption tree = begin(document.metadata(), document.branches(), keys);
    List<Object> plain = new ArrayList<>();
    for (Object branch : document.branches()) {
      plain.add(tree.decrypt(branch));
    }
    tree.verifyMac();
    return new DecryptedDocument(write(plain, format));
  }

  /**
   * Decrypts a SOPS-encrypted object (a Kubernetes Secret as the build gave it) in place of its
   * values, without its {@code sops} entry. The MAC is not checked here: the build may have changed
   * the object's other fields (namespace, labels); {@link #verify} checks it on the document as
   * committed.
   */
  public Map<String, Object> decryptObject(Map<String, Object> object, DecryptionKeys keys) {
    Map<String, Object> copy = new LinkedHashMap<>(object);
    Object metadata = copy.remove("sops");
    @SuppressWarnings("unchecked")
    Map<String, Object> plain =
        (Map<String, Object>) begin(metadata, List.of(copy), keys).decrypt(copy);
    return plain;
  }

  /**
   * What the author of committed documents fixed under their MAC, when the MAC covers it (not with
   * {@code mac_only_encrypted}): the namespace they all name, if they agree on one, and the labels
   * and annotations they all declare alike.
   */
  public record Authored(
      Optional<String> namespace, Map<String, String> labels, Map<String, String> annotations) {
    static final Authored NOTHING = new Authored(Optional.empty(), Map.of(), Map.of());

    public Authored {
      labels = Map.copyOf(labels);
      annotations = Map.copyOf(annotations);
    }

    /** What both say alike. */
    Authored and(Authored other) {
      return new Authored(
          namespace.equals(other.namespace) ? namespace : Optional.empty(),
          alike(labels, other.labels),
          alike(annotations, other.annotations));
    }

    private static Map<String, String> alike(Map<String, String> a, Map<String, String> b) {
      Map<String, String> both = new LinkedHashMap<>(a);
      both.entrySet().removeIf(e -> !e.getValue().equals(b.get(e.getKey())));
      return both;
    }
  }

  /**
   * Verifies the committed documents of a YAML or JSON file whose encrypted MAC is {@code mac}
   * (SOPS writes a new one at every encryption): they must decrypt and their MAC hold.
   *
   * @return empty when no document of the file carries that MAC, else what it authenticates
   * @throws DecryptionException when one does and fails
   */
  public Optional<Authored> verifyCommitted(
      byte[] content, SopsFormat format, String mac, DecryptionKeys keys) {
    List<Document> documents =
        format == SopsFormat.YAML
            ? StructuredFormats.readYamlEach(content)
            : List.of(StructuredFormats.readJson(content));
    List<Object> branches = new ArrayList<>();
    Object metadata = null;
    for (Document document : documents) {
      if (document.metadata() instanceof Map<?, ?> sops && mac.equals(sops.get("mac"))) {
        branches.addAll(document.branches());
        metadata = document.metadata();
      }
    }
    if (metadata == null) {
      return Optional.empty();
    }
    TreeDecryption tree = begin(metadata, branches, keys);
    List<Object> plain = branches.stream().map(tree::decrypt).toList();
    tree.verifyMac();
    return Optional.of(tree.macCoversAll() ? authored(plain) : Authored.NOTHING);
  }

  /** The namespace, labels and annotations all branches name alike. */
  private static Authored authored(List<Object> branches) {
    Set<Object> namespaces = new HashSet<>();
    Authored alike = null;
    for (Object branch : branches) {
      Map<?, ?> metadata =
          branch instanceof Map<?, ?> m && m.get("metadata") instanceof Map<?, ?> meta
              ? meta
              : Map.of();
      namespaces.add(metadata.get("namespace"));
      Authored one =
          new Authored(
              Optional.empty(),
              strings(metadata.get("labels")),
              strings(metadata.get("annotations")));
      alike = alike == null ? one : alike.and(one);
    }
    Optional<String> namespace =
        namespaces.size() == 1 && namespaces.iterator().next() instanceof String ns
            ? Optional.of(ns)
            : Optional.empty();
    return alike == null
        ? Authored.NOTHING
        : new Authored(namespace, alike.labels(), alike.annotations());
  }

  /** The string entries of a map of labels or annotations. */
  private static Map<String, String> strings(Object marks) {
    Map<String, String> out = new LinkedHashMap<>();
    if (marks instanceof Map<?, ?> map) {
      map.forEach(
          (k, v) -> {
            if (k instanceof String key && v instanceof String value) {
              out.put(key, value);
            }
          });
    }
    return out;
  }

  /**
   * A document's decryption, begun in the order that puts the cheap checks first: the metadata, the
   * document's bounds, the data key, the MAC entry; the values and the regex work over their keys
   * come after.
   */
  private TreeDecryption begin(Object metadata, List<Object> branches, DecryptionKeys keys) {
    SopsMetadata parsed = SopsMetadata.of(metadata);
    DocumentBounds.check(branches);
    return new TreeDecryption(parsed, DataKey.of(parsed, keys), budget.forDocument());
  }

  /** The branches and metadata of a document in its format. */
  static Document read(byte[] content, SopsFormat format) {
    return switch (format) {
      case YAML -> StructuredFormats.readYaml(content);
      case JSON, BINARY -> StructuredFormats.readJson(content);
      case DOTENV -> FlatFormats.readDotenv(content);
      case INI -> FlatFormats.readIni(content);
    };
  }

  private static byte[] write(List<Object> branches, SopsFormat format) {
    return switch (format) {
      case YAML -> StructuredFormats.writeYaml(branches);
      case JSON -> StructuredFormats.writeJson(branches);
      case BINARY -> StructuredFormats.binaryData(branches);
      case DOTENV -> FlatFormats.writeDotenv(branches);
      case INI -> FlatFormats.writeIni(branches);
    };
  }
}
