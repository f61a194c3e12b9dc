package dev.capstan.source.core.ignore;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.SourceException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The ignore rules in force in one directory of the tree, in gitignore syntax ({@link
 * IgnorePattern}).
 *
 * <p>Precedence, highest first: {@code spec.ignore} (anchored at the root, so it can overrule the
 * files in the tree), then {@code .sourceignore} files from the deepest directory up to the root,
 * then the built-in defaults. The first layer that has an opinion on a path decides. An ignored
 * directory is not entered, so nothing below it can be re-included (as in git). Matching a path
 * checks the fetch's deadline as it goes.
 */
public final class IgnoreRules {

  public static final String SOURCE_IGNORE = ".sourceignore";

  /** Built-in exclusions: VCS metadata never belongs in an artifact. */
  private static final String DEFAULTS = ".git/\n";

  private final IgnoreFile override;
  private final List<Layer> layers;
  private final Deadline deadline;

  /**
   * One {@code .sourceignore} (or the defaults) and the depth of the directory it applies below.
   */
  private record Layer(int depth, IgnoreFile rules) {}

  private IgnoreRules(IgnoreFile override, List<Layer> layers, Deadline deadline) {
    this.override = override;
    this.layers = layers;
    this.deadline = deadline;
  }

  /** The rules at the root, before any {@code .sourceignore} has been read. */
  public static IgnoreRules root(String specIgnore, Deadline deadline) {
    return root(specIgnore, DEFAULTS, deadline);
  }

  /** The rules at the root with other built-in defaults (gitignore lines). */
  public static IgnoreRules root(String specIgnore, String defaults, Deadline deadline) {
    return new IgnoreRules(
        specIgnore == null ? null : IgnoreFile.parse(specIgnore),
        List.of(new Layer(0, IgnoreFile.parse(defaults))),
        deadline);
  }

  /** The rules for the directory {@code dir} (path from the root, no trailing slash). */
  public IgnoreRules enter(String dir, byte[] sourceIgnore) {
    if (sourceIgnore == null) {
      return this;
    }
    List<Layer> deeper = new ArrayList<>(layers);
    int depth = dir.isEmpty() ? 0 : segments(dir).length;
    deeper.add(
        new Layer(depth, IgnoreFile.parse(new String(sourceIgnore, StandardCharsets.UTF_8))));
    return new IgnoreRules(override, List.copyOf(deeper), deadline);
  }

  /**
   * Whether {@code path} (relative to the root, {@code /}-separated) is left out.
   *
   * @throws SourceException once the fetch's deadline has passed
   */
  public boolean isIgnored(String path, boolean isDirectory) {
    String[] segments = segments(path);
    if (override != null) {
      IgnoreFile.Decision decided = override.decide(segments, 0, isDirectory, deadline);
      if (decided != IgnoreFile.Decision.UNDECIDED) {
        return decided == IgnoreFile.Decision.IGNORED;
      }
    }
    for (int i = layers.size() - 1; i >= 0; i--) {
      Layer layer = layers.get(i);
      IgnoreFile.Decision decided =
          layer.rules().decide(segments, layer.depth(), isDirectory, deadline);
      if (decided != IgnoreFile.Decision.UNDECIDED) {
        return decided == IgnoreFile.Decision.IGNORED;
      }
    }
    return false;
  }

  private static String[] segments(String path) {
    return path.split("/", -1);
  }
}
