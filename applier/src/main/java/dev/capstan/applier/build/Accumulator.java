package dev.capstan.applier.build;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Adds resources to a build, refusing a second object with the same identity. */
final class Accumulator {
  private Accumulator() {}

  static void addAll(List<Resource> resources, List<Resource> added) {
    Map<String, Resource> known = new HashMap<>();
    for (Resource existing : resources) {
      known.put(existing.identity(), existing);
    }
    for (Resource resource : added) {
      Resource existing = known.putIfAbsent(resource.identity(), resource);
      if (existing != null) {
        Origin first = existing.origin();
        throw new BuildFailure(
            BuildErrorKind.DUPLICATE_OBJECT, resource.origin(),
            resource.describe() + " is already defined in " + first.file()
                + (first.line() > 0 ? ":" + first.line() : ""));
      }
      resources.add(resource);
    }
  }
}
