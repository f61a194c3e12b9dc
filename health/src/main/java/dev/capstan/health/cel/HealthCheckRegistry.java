package dev.capstan.health.cel;

import dev.capstan.health.GroupKind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the CEL check for an apiVersion/kind. Entries keyed by a group apply to every version of
 * it; entries keyed by an exact apiVersion (built-in library only) win over them, and an entry with
 * a kind wins over a kind-less one.
 */
public final class HealthCheckRegistry {
  private static final String WILDCARD_VERSION = "/*";

  private final Map<String, Map<String, LazyHealthCheck>> byApiVersion;
  private final Map<String, Map<String, LazyHealthCheck>> byGroup;

  private HealthCheckRegistry(
      Map<String, Map<String, LazyHealthCheck>> byApiVersion,
      Map<String, Map<String, LazyHealthCheck>> byGroup) {
    this.byApiVersion = byApiVersion;
    this.byGroup = byGroup;
  }

  static HealthCheckRegistry empty() {
    return new HealthCheckRegistry(Map.of(), Map.of());
  }

  /** User entries: only the group of apiVersion counts, as in {@code healthCheckExprs}. */
  public static HealthCheckRegistry forUser(List<LazyHealthCheck> checks, String listName) {
    Map<String, Map<String, LazyHealthCheck>> byGroup = new HashMap<>();
    for (int i = 0; i < checks.size(); i++) {
      HealthCheckExpr entry = checks.get(i).entry();
      add(byGroup, group(entry.apiVersion()), entry.kind(), checks.get(i), listName, i);
    }
    return new HealthCheckRegistry(Map.of(), byGroup);
  }

  /** Library entries: {@code group/*} matches any version, anything else that exact apiVersion. */
  static HealthCheckRegistry forLibrary(List<LazyHealthCheck> checks, String listName) {
    Map<String, Map<String, LazyHealthCheck>> byApiVersion = new HashMap<>();
    Map<String, Map<String, LazyHealthCheck>> byGroup = new HashMap<>();
    for (int i = 0; i < checks.size(); i++) {
      HealthCheckExpr entry = checks.get(i).entry();
      if (entry.apiVersion().endsWith(WILDCARD_VERSION)) {
        add(byGroup, group(entry.apiVersion()), entry.kind(), checks.get(i), listName, i);
      } else {
        add(byApiVersion, entry.apiVersion(), entry.kind(), checks.get(i), listName, i);
      }
    }
    return new HealthCheckRegistry(byApiVersion, byGroup);
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
        byGroup.isEmpty() ? null : byGroup.get(GroupKind.groupOf(apiVersion));
    if (group != null) {
      LazyHealthCheck check = group.get(kind);
      if (check != null) {
        return check;
      }
    }
    if (exact != null && exact.containsKey("")) {
      return exact.get("");
    }
    return group == null ? null : group.get("");
  }

  private static String group(String apiVersion) {
    String withoutWildcard =
        apiVersion.endsWith(WILDCARD_VERSION)
            ? apiVersion.substring(0, apiVersion.length() - WILDCARD_VERSION.length()) + "/v"
            : apiVersion;
    return GroupKind.groupOf(withoutWildcard);
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
