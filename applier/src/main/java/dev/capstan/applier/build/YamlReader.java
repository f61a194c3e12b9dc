package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.constructor.StandardConstructor;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * Parses multi-document YAML (JSON is YAML too) into plain maps and lists, remembering the line
 * each document starts on so errors can point at it.
 */
final class YamlReader {
  private static final int MAX_FILE_CODE_POINTS = 64 * 1024 * 1024;

  private final LoadSettings settings =
      LoadSettings.builder()
          .setAllowDuplicateKeys(false)
          .setCodePointLimit(MAX_FILE_CODE_POINTS)
          .setDefaultMap(LinkedHashMap::new)
          .setSchema(new PlainCoreSchema())
          .build();

  /**
   * Quoted strings holding a {@code ${...}} variable, by identity: post-build substitution keeps
   * them strings, as Flux does, while a plain {@code replicas: ${N}} becomes a number.
   */
  private final Set<String> quotedVariables = Collections.newSetFromMap(new IdentityHashMap<>());

  boolean isQuotedVariable(String value) {
    return quotedVariables.contains(value);
  }

  List<YamlDocument> read(String text, String file) {
    List<YamlDocument> documents = new ArrayList<>();
    try {
      Composer composer =
          new Composer(settings, new ParserImpl(settings, new StreamReader(settings, text)));
      while (composer.hasNext()) {
        Node node = composer.next();
        int line = node.getStartMark().map(mark -> mark.getLine() + 1).orElse(0);
        rememberQuotedVariables(node);
        Object content = new StandardConstructor(settings).constructSingleDocument(Optional.of(node));
        documents.add(new YamlDocument(content, new Origin(file, line)));
      }
    } catch (MarkedYamlEngineException e) {
      int line = e.getProblemMark().or(e::getContextMark).map(YamlReader::lineOf).orElse(0);
      String problem = e.getProblem() == null ? "invalid YAML" : e.getProblem();
      String context = e.getContext() == null ? "" : e.getContext() + ": ";
      throw new BuildFailure(
          BuildErrorKind.MALFORMED_YAML, new Origin(file, line), "malformed YAML: " + context + problem);
    } catch (YamlEngineException e) {
      throw new BuildFailure(
          BuildErrorKind.MALFORMED_YAML, Origin.of(file), "malformed YAML: " + e.getMessage());
    }
    return documents;
  }

  /** The single document of a file that must hold exactly one mapping (a kustomization, a patch). */
  Map<String, Object> readMapping(String text, String file) {
    List<YamlDocument> documents =
        read(text, file).stream().filter(d -> d.content() != null).toList();
    if (documents.size() != 1 || !(documents.get(0).content() instanceof Map<?, ?>)) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_KUSTOMIZATION,
          Origin.of(file),
          "expected a single YAML mapping, found " + documents.size() + " document(s)");
    }
    return ObjectTree.stringKeyed(documents.get(0).content(), documents.get(0).origin());
  }

  private void rememberQuotedVariables(Node node) {
    if (node instanceof ScalarNode scalar) {
      if (scalar.getScalarStyle() != ScalarStyle.PLAIN && scalar.getValue().contains("${")) {
        quotedVariables.add(scalar.getValue());
      }
    } else if (node instanceof SequenceNode sequence) {
      sequence.getValue().forEach(this::rememberQuotedVariables);
    } else if (node instanceof MappingNode mapping) {
      for (NodeTuple tuple : mapping.getValue()) {
        rememberQuotedVariables(tuple.getValueNode());
      }
    }
  }

  private static int lineOf(Mark mark) {
    return mark.getLine() + 1;
  }
}
