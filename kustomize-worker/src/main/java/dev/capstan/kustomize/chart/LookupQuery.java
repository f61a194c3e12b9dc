package dev.capstan.kustomize.chart;

/**
 * One call of Helm's {@code lookup} in a chart's template: {@code lookup "v1" "Secret" "ns"
 * "name"}. An empty name asks for the list of every such object in the namespace (an empty
 * namespace: in every namespace, or the cluster-scoped ones).
 */
public record LookupQuery(String apiVersion, String kind, String namespace, String name) {

  public LookupQuery {
    apiVersion = apiVersion == null ? "" : apiVersion;
    kind = kind == null ? "" : kind;
    namespace = namespace == null ? "" : namespace;
    name = name == null ? "" : name;
  }

  /** Whether this asks for a list rather than one object. */
  public boolean list() {
    return name.isEmpty();
  }

  /** What the lookup names, for messages: {@code v1 Secret 'ns/name'} (the tenant's text). */
  public String describe() {
    String where = namespace.isEmpty() ? name : namespace + "/" + name;
    return apiVersion + " " + kind + (list() ? " list" : "") + " '" + where + "'";
  }
}
