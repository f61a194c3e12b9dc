package dev.capstan.kube;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.constructor.StandardConstructor;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.schema.CoreSchema;
import org.snakeyaml.engine.v2.schema.Schema;

/**
 * Reads YAML (and so JSON) into plain maps, lists and scalars with bounds on what a hostile file
 * can cost: nesting depth (the composer recurses, so a deep file would overflow the stack), aliases
 * and what they expand to (billion laughs: the maps share what an alias names, but whoever walks or
 * copies them pays for every repetition), the length of the input, no duplicate keys, no recursive
 * structures, and, where the caller asks for it, the nodes written in the stream (every scalar,
 * key, alias, mapping and sequence counts), checked while the stream is first parsed, so that a
 * long flow sequence costs no more than the bound before it is refused. Scalars resolve by YAML
 * 1.2's core schema unless the caller passes another. Problems never quote the input: it may be a
 * Secret.
 */
public final class BoundedYaml {
  /** Deeper than any Kubernetes object; far from what overflows a thread's stack. */
  public static final int MAX_DEPTH = 200;

  static final int MAX_ALIASES = 100;
  static final int MAX_CODE_POINTS = 16 * 1024 * 1024;

  /** Nodes that aliases may add to a document beyond those written in it. */
  static final long MAX_ALIAS_EXPANSION = 1_000_000;

  private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"");
  private static final Pattern NAMED =
      Pattern.compile("(?i)(alias|anchor|duplicate key|tag)\\s+\\S+");

  /** One document of a stream and the line (from 1) where its content starts. */
  public record Document(int line, Object value) {}

  /** The input is not YAML within the bounds: where, and what, without quoting the input. */
  public static final class YamlProblem extends Exception {
    private static final long serialVersionUID = 1L;
    private final int document;
    private final int line;
    private final int column;
    private final String problem;

    YamlProblem(int document, int line, int column, String problem) {
      super(problem, null, false, false);
      this.document = document;
      this.line = line;
      this.column = column;
      this.problem = problem;
    }

    /** {@code problem} where {@code event} starts, in {@code document}. */
    static YamlProblem at(Event event, int document, String problem) {
      Optional<Mark> mark = event.getStartMark();
      return new YamlProblem(
          document,
          mark.map(m -> m.getLine() + 1).orElse(0),
          mark.map(m -> m.getColumn() + 1).orElse(0),
          problem);
    }

    /** The document (from 1) where the problem was found. */
    public int document() {
      return document;
    }

    /** The line (from 1) where the problem was found, 0 if unknown. */
    public int line() {
      return line;
    }

    /** The column (from 1), 0 if unknown. */
    public int column() {
      return column;
    }

    public String problem() {
      return problem;
    }
  }

  private final LoadSettings settings;
  private final long maxNodes;

  /** Without a bound on the nodes written (only on the length of the input). */
  public BoundedYaml() {
    this(Long.MAX_VALUE);
  }

  /**
   * @param maxNodes the nodes (scalars, keys, aliases, mappings, sequences) a whole stream may hold
   */
  public BoundedYaml(long maxNodes) {
    this(maxNodes, new CoreSchema());
  }

  /**
   * @param maxNodes the nodes (scalars, keys, aliases, mappings, sequences) a whole stream may hold
   * @param schema how plain scalars resolve, for a reader that must type them as another YAML
   *     implementation does (Helm's values are YAML 1.1's)
   */
  public BoundedYaml(long maxNodes, Schema schema) {
    this.maxNodes = maxNodes;
    this.settings =
        LoadSettings.builder()
            .setSchema(schema)
            .setMaxAliasesForCollections(MAX_ALIASES)
            .setAllowRecursiveKeys(false)
            .setAllowDuplicateKeys(false)
            .setCodePointLimit(MAX_CODE_POINTS)
            .build();
  }

  /** Every document of a multi-document stream, empty ones as null values. */
  public List<Document> readAll(String text) throws YamlProblem {
    List<Document> documents = new ArrayList<>();
    compose(text, documents);
    return documents;
  }

  /**
   * Every document of a multi-document stream as the node tree it was written as (each scalar's
   * text and style as written), under the same bounds and checks as {@link #readAll}, for a writer
   * that changes a few nodes and must leave every other one exactly as it was.
   */
  public List<Node> composeAll(String text) throws YamlProblem {
    return compose(text, new ArrayList<>());
  }

  private List<Node> compose(String text, List<Document> documents) throws YamlProblem {
    requireBoundedDepth(text);
    List<Node> nodes = new ArrayList<>();
    try {
      for (Node node : new Compose(settings).composeAllFromString(text)) {
        int line = node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
        requireBoundedExpansion(nodes.size() + 1, line, node);
        // Constructing checks what composing does not (duplicate keys, recursive keys).
        documents.add(new Document(line, construct(node)));
        nodes.add(node);
      }
    } catch (YamlEngineException e) {
      throw problemOf(nodes.size() + 1, e);
    }
    return nodes;
  }

  /** The only document of {@code text}, null when it is empty. */
  public Object readOne(String text) throws YamlProblem {
    List<Document> documents = readAll(text);
    if (documents.size() > 1) {
      throw new YamlProblem(
          2, documents.get(1).line(), 0, "expected one document, found " + documents.size());
    }
    return documents.isEmpty() ? null : documents.get(0).value();
  }

  private Object construct(Node node) {
    return new StandardConstructor(settings).constructSingleDocument(Optional.of(node));
  }

  private void requireBoundedDepth(String text) throws YamlProblem {
    int depth = 0;
    int document = 0;
    long nodes = 0;
    try {
      for (Event event : new Parse(settings).parseString(text)) {
        switch (event.getEventId()) {
          case Scalar, Alias, MappingStart, SequenceStart -> nodes++;
          default -> {}
        }
        if (nodes > maxNodes) {
          throw YamlProblem.at(event, document, "more than " + maxNodes + " nodes");
        }
        switch (event.getEventId()) {
          case DocumentStart -> document++;
          case MappingStart, SequenceStart -> {
            if (++depth > MAX_DEPTH) {
              throw YamlProblem.at(event, document, "nested deeper than " + MAX_DEPTH + " levels");
            }
          }
          case MappingEnd, SequenceEnd -> depth--;
          default -> {}
        }
      }
    } catch (YamlEngineException e) {
      throw problemOf(Math.max(document, 1), e);
    }
  }

  private static void requireBoundedExpansion(int document, int line, Node root)
      throws YamlProblem {
    Map<Node, Long> sizes = new IdentityHashMap<>();
    long expanded = expandedSize(root, sizes, document, line);
    if (expanded - sizes.size() > MAX_ALIAS_EXPANSION) {
      throw new YamlProblem(
          document, line, 0, "aliases expand to more than " + MAX_ALIAS_EXPANSION + " nodes");
    }
  }

  /** The node count of {@code node} with every alias written out, each shared node counted once. */
  private static long expandedSize(Node node, Map<Node, Long> sizes, int document, int line)
      throws YamlProblem {
    Long known = sizes.get(node);
    if (known != null) {
      if (known < 0) {
        throw new YamlProblem(document, line, 0, "an alias refers to a node that contains it");
      }
      return known;
    }
    sizes.put(node, -1L);
    long size = 1;
    if (node instanceof SequenceNode sequence) {
      for (Node item : sequence.getValue()) {
        size = capped(size + expandedSize(item, sizes, document, line));
      }
    } else if (node instanceof MappingNode mapping) {
      for (NodeTuple tuple : mapping.getValue()) {
        size =
            capped(
                size
                    + expandedSize(tuple.getKeyNode(), sizes, document, line)
                    + expandedSize(tuple.getValueNode(), sizes, document, line));
      }
    }
    sizes.put(node, size);
    return size;
  }

  private static long capped(long size) {
    return Math.min(size, Long.MAX_VALUE / 4);
  }

  private static YamlProblem problemOf(int document, YamlEngineException e) {
    if (e instanceof MarkedYamlEngineException marked) {
      Optional<Mark> at = marked.getProblemMark();
      return new YamlProblem(
          document,
          at.map(m -> m.getLine() + 1).orElse(0),
          at.map(m -> m.getColumn() + 1).orElse(0),
          scrubbed(marked.getProblem()));
    }
    return new YamlProblem(document, 0, 0, scrubbed(e.getMessage()));
  }

  /** The parser's description without the input it quotes: a token, an alias or a key. */
  private static String scrubbed(String problem) {
    if (problem == null || problem.isBlank()) {
      return "malformed";
    }
    String firstLine = problem.lines().findFirst().orElse("");
    return QUOTED.matcher(NAMED.matcher(firstLine).replaceAll("$1")).replaceAll("(...)");
  }
}
