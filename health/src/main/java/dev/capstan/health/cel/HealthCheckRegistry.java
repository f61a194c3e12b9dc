package dev.capstan.health.cel;

import dev.capstan.kube.ApiVersion;
import dev.capstan.kube.GroupKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the CEL check for an apiVersion/kind. Entries keyed by a group apply to every version of
 * it; entries keyed by an exact apiVersion (built-in library only) win over them, and an entry with
 * a kind wins over a kind-less one. The built-in library may also key a kind-less entry by a family
 * of groups, {@code *.services.k8s.aws/*}: every group ending in {@code .services.k8s.aws}, for the
 * kinds no other entry covers (the longest suffix first).
 */
public final class HealthCheckRegistry {
  private static final String WILDCARD_VERSION = "/*";
  private static final String WILDCARD_GROUP = "*.";

  private final Map<String, Map<String, LazyHealthCheck>> byApiVersion;
  private final Map<String, Map<String, LazyHealthCheck>> byGroup;
  private final List<GroupFamily> byGroupSuffix;

  /**
   * A kind-less library entry for every group ending in {@code suffix} (which starts with a dot).
   */
  private record GroupFamily(String suffix, LazyHealthCheck check) {}

  private HealthCheckRegistry(
      Map<String, Map<String, LazyHealthCheck>> byApiVersion,
      Map<String, Map<String, LazyHealthCheck>> byGroup,
      List<GroupFamily> byGroupSuffix) {
    this.byApiVersion = byApiVersion;
    this.byGroup = byGroup;
    this.byGroupSuffix = byGroupSuffix;
  }

  static HealthCheckRegistry empty() {
    return new HealthCheckRegistry(Map.of(), Map.of(), List.of());
  }

  /** User entries: only the group of apiVersion counts, as in {@code healthCheckExprs}. */
  public static HealthCheckRegistry forUser(List<LazyHealthCheck> checks, String listName) {
    Map<String, Map<String, LazyHealthCheck>> byGroup = new HashMap<>();
    for (int i = 0; i < checks.size(); i++) {
      HealthCheckExpr entry = checks.get(i).entry();
      add(byGroup, group(entry.apiVersion()), entry.kind(), checks.get(i), listName, i);
    }
    return new HealthCheckRegistry(Map.of(), byGroup, List.of());
  }

  /**
   * Library entries: {@code group/*} matches any version, {@code *.suffix/*} (kind-less) any group
   * ending in {@code .suffix}, anything else that exact apiVersion.
   */
  static HealthCheckRegistry forLibrary(List<LazyHealthCheck> checks, String listName) {
    Map<String, Map<String, LazyHealthCheck>> byApiVersion = new HashMap<>();
    Map<String, Map<String, LazyHealthCheck>> byGroup = new HashMap<>();
    Map<String, Map<String, LazyHealthCheck>> families = new HashMap<>();
    for (int i = 0; i < checks.size(); i++) {
      HealthCheckExpr entry = checks.get(i).entry();
      String apiVersion = entry.apiVersion();
      if (apiVersion.startsWith(WILDCARD_GROUP) && apiVersion.endsWith(WILDCARD_VERSION)) {
        if (!entry.kind().isEmpty()) {
          throw new InvalidHealthCheckException(
              listName
                  + "["
                  + i
                  + "]: an entry for a family of groups ("
                  + apiVersion
                  + ") cannot name a kind");
        }
        String suffix = group(apiVersion).substring(1);
        add(families, suffix, "", checks.get(i), listName, i);
      } else if (apiVersion.endsWith(WILDCARD_VERSION)) {
        add(byGroup, group(apiVersion), entry.kind(), checks.get(i), listName, i);
      } else {
        add(byApiVersion, apiVersion, entry.kind(), checks.get(i), listName, i);
      }
    }
    List<GroupFamily> bySuffix = new ArrayList<>();
    families.forEach((suffix, entries) -> bySuffix.add(new GroupFamily(suffix, entries.get(""))));
    bySuffix.sort(Comparator.comparingInt((GroupFamily f) -> -f.suffix().length()));
    return new HealthCheckRegistry(byApiVersion, byGroup, List.copyOf(bySuffix));
  }

  /** The check for an object, or null; finding it compiles nothing. */
  public LazyHealthCheck find(String apiVersion, String kind) {
    Map<String, LazyHealthCheck> exact =
        byApiVersion.isEmpty() ? null : byApiVersion.get(apiVersion);
    if (exact != null) {
      LazyHealthCheck check = exact.get(kind);
      if (check != null) {
        return check;
      }
    }
    Map<String, LazyHealthCheck> group =
        byGroup.isEmpty() ? null : byGroup.get(ApiVersion.of(apiVersion).group());
    if (group != null) {
      LazyHealthCheck check = group.get(kind);
      if (check != null) {
        return check;
      }
    }
    if (exact != null && exact.containsKey("")) {
      return exact.get("");
    }
    LazyHealthCheck groupWide = group == null ? null : group.get("");
    return groupWide != null || byGroupSuffix.isEmpty() ? groupWide : family(apiVersion);
  }

  /** The entry for the longest family of groups the apiVersion's group belongs to, or null. */
  private LazyHealthCheck family(String apiVersion) {
    String group = ApiVersion.of(apiVersion).group();
    for (GroupFamily family : byGroupSuffix) {
      if (group.endsWith(family.suffix())) {
        return family.check();
      }
    }
    return null;
  }

  private static String group(String apiVersion) {
    String withoutWildcard =
        apiVersion.endsWith(WILDCARD_VERSION)
            ? apiVersion.substring(0, apiVersion.length() - WILDCARD_VERSION.length()) + "/v"
            : apiVersion;
    return ApiVersion.of(withoutWildcard).group();
  }

  private static void add(
      Map<String, Map<String, LazyHealthCheck>> index,
      String key,
      String kind,
      LazyHealthCheck check,
      String listName,
      int position) {
    LazyHealthCheck previous =
        index.computeIfAbsent(key, k -> new HashMap<>()).putIfAbsent(kind, check);
    if (previous != null) {
      String groupKind = kind.isEmpty() ? key : new GroupKind(key, kind).toString();
      throw new InvalidHealthCheckException(
          "duplicate custom health check for GroupKind "
              + groupKind
              + " at "
              + listName
              + "["
              + position
              + "]");
    }
  }
}
