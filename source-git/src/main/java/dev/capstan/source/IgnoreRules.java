package dev.capstan.source;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.ignore.IgnoreNode;

/**
 * The ignore rules in force in one directory of the tree, in gitignore syntax.
 *
 * <p>Precedence, highest first: {@code spec.ignore} (anchored at the root, so it can overrule the
 * files in the tree), then {@code .sourceignore} files from the deepest directory up to the root,
 * then the built-in defaults. The first layer that has an opinion on a path decides. An ignored
 * directory is not entered, so nothing below it can be re-included (as in git).
 */
final class IgnoreRules {

  static final String SOURCE_IGNORE = ".sourceignore";

  /** Built-in exclusions: VCS metadata never belongs in an artifact. */
  private static final String DEFAULTS = ".git/\n";

  private final IgnoreNode override;
  private final List<Layer> layers;

  /** One {@code .sourceignore} (or the defaults) and the directory it applies below. */
  private record Layer(String dir, IgnoreNode node) {}

  private IgnoreRules(IgnoreNode override, List<Layer> layers) {
    this.override = override;
    this.layers = layers;
  }

  /** The rules at the root, before any {@code .sourceignore} has been read. */
  static IgnoreRules root(String specIgnore) {
    return root(specIgnore, DEFAULTS);
  }

  /** The rules at the root with other built-in defaults (gitignore lines). */
  static IgnoreRules root(String specIgnore, String defaults) {
    List<Layer> layers = new ArrayList<>();
    layers.add(new Layer("", parse(defaults)));
    return new IgnoreRules(specIgnore == null ? null : parse(specIgnore), List.copyOf(layers));
  }

  /** The rules for the directory {@code dir} (path from the root, no trailing slash). */
  IgnoreRules enter(String dir, byte[] sourceIgnore) {
    if (sourceIgnore == null) {
      return this;
    }
    List<Layer> deeper = new ArrayList<>(layers);
    deeper.add(new Layer(dir, parse(new String(sourceIgnore, StandardCharsets.UTF_8))));
    return new IgnoreRules(override, List.copyOf(deeper));
  }

  /** Whether {@code path} (relative to the root, {@code /}-separated) is left out. */
  boolean isIgnored(String path, boolean isDirectory) {
    if (override != null) {
      Boolean decided = override.checkIgnored(path, isDirectory);
      if (decided != null) {
        return decided;
      }
    }
    for (int i = layers.size() - 1; i >= 0; i--) {
      Layer layer = layers.get(i);
      String relative = layer.dir().isEmpty() ? path : path.substring(layer.dir().length() + 1);
      Boolean decided = layer.node().checkIgnored(relative, isDirectory);
      if (decided != null) {
        return decided;
      }
    }
    return false;
  }

  private static IgnoreNode parse(String rules) {
    IgnoreNode node = new IgnoreNode();
    try {
      node.parse(new ByteArrayInputStream(rules.getBytes(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return node;
  }
}
