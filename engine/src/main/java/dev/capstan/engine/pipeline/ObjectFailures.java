package dev.capstan.engine.pipeline;

import dev.capstan.applier.common.ObjectResult;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/** How a status names the objects an apply, prune or deletion failed on. */
public final class ObjectFailures {
  private ObjectFailures() {}

  /** Failing objects in lexicographic order, each with the API server's reason. */
  public static String describe(List<ObjectResult> failures) {
    return failures.stream()
        .sorted(Comparator.comparing((ObjectResult r) -> r.ref().toString()))
        .map(r -> r.ref() + ": " + r.reason())
        .collect(Collectors.joining("; "));
  }
}
