package dev.capstan.applier.build;

import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * The YAML 1.2 core schema without the YAML library's environment-variable tag: {@code ${NAME}}
 * in a manifest is a plain string (substituted only by post-build substitution, never from the
 * process environment).
 */
class PlainCoreSchema extends CoreSchema {
  private final ScalarResolver core = super.getScalarResolver();

  @Override
  public ScalarResolver getScalarResolver() {
    return (value, implicit) -> {
      Tag tag = core.resolve(value, implicit);
      return Tag.ENV_TAG.equals(tag) ? Tag.STR : tag;
    };
  }
}
