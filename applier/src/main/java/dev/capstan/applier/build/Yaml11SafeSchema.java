package dev.capstan.applier.build;

import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;

/**
 * The YAML 1.2 core schema, except that strings a YAML 1.1 reader would take for something else
 * ({@code yes}, {@code on}, {@code y}, {@code 0777}, {@code 1_000}, dates, ...) resolve to a
 * non-string tag, so the writer quotes them and kubectl reads them back as strings.
 */
final class Yaml11SafeSchema extends PlainCoreSchema {
  private static final Pattern YAML11_SPECIAL =
      Pattern.compile(
          "^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|false|False|FALSE"
              + "|~|null|Null|NULL|=|<<"
              + "|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
              + "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+"
              + "|[-+]?(?:[0-9][0-9_]*)?\\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+"
              + "|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)"
              + "|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?)$");

  private final ScalarResolver core = super.getScalarResolver();

  @Override
  public ScalarResolver getScalarResolver() {
    return (value, implicit) -> {
      Tag tag = core.resolve(value, implicit);
      if (Tag.STR.equals(tag) && implicit && YAML11_SPECIAL.matcher(value).matches()) {
        return Tag.FLOAT;
      }
      return tag;
    };
  }
}
