package dev.capstan.kustomize.chart;

import java.util.Objects;

/** What a {@link ChartLookups} answers for one lookup. */
public sealed interface LookupAnswer {

  /**
   * The object, or the list (with its {@code items}), as the API server gives it.
   *
   * @param json its JSON text
   */
  record Found(String json) implements LookupAnswer {
    public Found {
      Objects.requireNonNull(json, "json");
    }
  }

  /** It does not exist: Helm's {@code lookup} gives an empty map. */
  record Missing() implements LookupAnswer {}

  /**
   * It could not be read (refused to the identity, an unknown kind, the server unreachable): the
   * template fails with this reason, which must name what was looked up and never its content.
   */
  record Refused(String reason) implements LookupAnswer {
    public Refused {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
