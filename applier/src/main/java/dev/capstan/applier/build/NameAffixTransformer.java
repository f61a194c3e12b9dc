package dev.capstan.applier.build;

import java.util.List;

/** Adds {@code namePrefix} and {@code nameSuffix} to every name except Namespaces' and CRDs'. */
final class NameAffixTransformer {
  private final String prefix;
  private final String suffix;

  NameAffixTransformer(String prefix, String suffix) {
    this.prefix = prefix;
    this.suffix = suffix;
  }

  void apply(List<Resource> resources) {
    if (prefix.isEmpty() && suffix.isEmpty()) {
      return;
    }
    for (Resource resource : resources) {
      if (!KindTable.keepsName(resource)) {
        resource.rename(prefix + resource.name() + suffix);
      }
    }
  }
}
