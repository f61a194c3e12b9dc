package dev.capstan.engine.remote;

import dev.capstan.kube.BoundedYaml;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a kubeconfig that a tenant put in a Secret. It is hostile input: it is bounded in size,
 * depth and aliases, and only inline data are taken. Anything that would make the engine run a
 * program (exec, auth-provider), read a file of its own (client-certificate, client-key, tokenFile,
 * certificate-authority) or route through a proxy is refused. Error messages name the field, never
 * a value.
 */
final class KubeConfigParser {
  /** Far above a kubeconfig with a certificate chain and a long token. */
  static final int MAX_BYTES = 256 * 1024;

  private static final Set<String> REFUSED_USER_FIELDS =
      Set.of(
          "exec",
          "auth-provider",
          "client-certificate",
          "client-key",
          "tokenFile",
          "as",
          "as-groups",
          "as-uid",
          "as-user-extra");
  private static final Set<String> REFUSED_CLUSTER_FIELDS =
      Set.of("certificate-authority", "proxy-url", "tls-server-name");

  private KubeConfigParser() {}

  /**
   * @param where names the source for messages, e.g. {@code Secret 'ns/name' key 'value'}
   * @throws RemoteClusterException when the kubeconfig cannot be used
   */
  static RemoteConnection parse(byte[] bytes, String where) {
    if (bytes.length > MAX_BYTES) {
      throw invalid(where, "it is larger than " + MAX_BYTES / 1024 + " KiB");
    }
    Map<?, ?> root =
        asMap(load(new String(bytes, StandardCharsets.UTF_8), where), where, "the document");
    String contextName = string(root, "current-context");
    if (contextName == null || contextName.isEmpty()) {
      throw invalid(where, "current-context is not set");
    }
    Map<?, ?> context = named(root, "contexts", "context", contextName, where);
    String clusterName = string(context, "cluster");
    String userName = string(context, "user");
    if (clusterName == null) {
      throw invalid(where, "context '" + contextName + "' names no cluster");
    }
    Map<?, ?> cluster = named(root, "clusters", "cluster", clusterName, where);
    Map<?, ?> user = userName == null ? Map.of() : named(root, "users", "user", userName, where);
    refuse(cluster, REFUSED_CLUSTER_FIELDS, where, "cluster '" + clusterName + "'");
    refuse(user, REFUSED_USER_FIELDS, where, "user '" + userName + "'");
    String server = string(cluster, "server");
    if (server == null || !(server.startsWith("https://") || server.startsWith("http://"))) {
      throw invalid(where, "cluster '" + clusterName + "' has no http(s) server URL");
    }
    String token = string(user, "token");
    return new RemoteConnection(
        server,
        string(cluster, "certificate-authority-data"),
        Boolean.TRUE.equals(cluster.get("insecure-skip-tls-verify")),
        string(user, "client-certificate-data"),
        string(user, "client-key-data"),
        token == null ? null : () -> token,
        string(user, "username"),
        string(user, "password"));
  }

  private static Object load(String text, String where) {
    try {
      // Bounded in depth, aliases and length; its problems never quote the text (a credential).
      return new BoundedYaml().readOne(text);
    } catch (BoundedYaml.YamlProblem e) {
      throw invalid(
          where, "it is not valid YAML" + (e.line() > 0 ? " (line " + e.line() + ")" : ""));
    }
  }

  /** The {@code inner} map of the entry of list {@code list} whose name is {@code name}. */
  private static Map<?, ?> named(
      Map<?, ?> root, String list, String inner, String name, String where) {
    Object entries = root.get(list);
    if (entries instanceof List<?> items) {
      for (Object item : items) {
        if (item instanceof Map<?, ?> entry && name.equals(entry.get("name"))) {
          return asMap(entry.get(inner), where, list + " entry '" + name + "'");
        }
      }
    }
    throw invalid(where, "it has no " + inner + " named '" + name + "'");
  }

  private static void refuse(Map<?, ?> section, Set<String> refused, String where, String what) {
    for (Object key : section.keySet()) {
      if (refused.contains(String.valueOf(key))) {
        throw invalid(
            where,
            what
                + " uses '"
                + key
                + "', which is not allowed: only inline data (certificate-authority-data,"
                + " client-certificate-data, client-key-data, token, username and password) are"
                + " used; no programs, plugins, files, proxies or impersonation");
      }
    }
  }

  private static Map<?, ?> asMap(Object value, String where, String what) {
    if (value instanceof Map<?, ?> map) {
      return map;
    }
    throw invalid(where, what + " is not a mapping");
  }

  private static String string(Map<?, ?> map, String key) {
    Object value = map.get(key);
    return value == null ? null : String.valueOf(value);
  }

  private static RemoteClusterException invalid(String where, String problem) {
    return new RemoteClusterException("the kubeconfig in " + where + " cannot be used: " + problem);
  }
}
