package dev.capstan.engine.source;

import dev.capstan.source.core.FailureReason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The chains of {@code spec.include} below one GitRepository: one that comes back to it would make
 * its artifact change forever, one deeper than {@link #MAX_DEPTH} is refused. The walk keeps one
 * chain per GitRepository and depth, so its work grows with the number of GitRepositories, not with
 * the number of chains (which tenants' includes could make explode).
 */
final class IncludeChains {

  /** Chains that include GitRepositories more than this many levels below the first are refused. */
  static final int MAX_DEPTH = 10;

  private IncludeChains() {}

  /**
   * @param self the GitRepository whose includes are checked
   * @param includesOf the names a GitRepository of the namespace includes; null for one that does
   *     not exist (its absence is reported elsewhere)
   * @throws SourceInputs.Unavailable InvalidSpec for a cycle back to {@code self} or a chain too
   *     deep
   */
  static void refuseCyclesAndDeepChains(String self, Function<String, List<String>> includesOf) {
    Map<String, List<String>> known = new HashMap<>();
    Function<String, List<String>> lookup =
        name ->
            known.computeIfAbsent(
                name,
                n -> {
                  List<String> names = includesOf.apply(n);
                  return names == null ? List.of() : names;
                });
    Map<String, List<String>> chains = new LinkedHashMap<>();
    chains.put(self, List.of(self));
    for (int depth = 1; !chains.isEmpty(); depth++) {
      Map<String, List<String>> next = new LinkedHashMap<>();
      for (List<String> chain : chains.values()) {
        for (String included : lookup.apply(chain.get(chain.size() - 1))) {
          List<String> longer = new ArrayList<>(chain);
          longer.add(included);
          if (included.equals(self)) {
            throw new SourceInputs.Unavailable(
                FailureReason.INVALID_SPEC,
                "spec.include makes a cycle: " + String.join(" -> ", longer));
          }
          if (chain.contains(included)) {
            continue; // a cycle among the others, which does not come back here
          }
          if (depth > MAX_DEPTH) {
            throw new SourceInputs.Unavailable(
                FailureReason.INVALID_SPEC,
                "spec.include nests more "
                    + "than "
                    + MAX_DEPTH
                    + " GitRepositories deep: "
                    + String.join(" -> ", longer));
          }
          next.putIfAbsent(included, longer);
        }
      }
      chains = next;
    }
  }
}
