package dev.capstan.helm.release;

import java.util.Map;

/**
 * One stored release record: the Secret it is in ({@code sh.helm.release.v1.<name>.v<version>} of
 * the storage namespace), the resourceVersion it was read or written at, its labels, and the
 * release it holds.
 */
public record ReleaseRecord(
    String namespace,
    String secretName,
    String resourceVersion,
    Map<String, String> labels,
    Release release) {

  public ReleaseRecord {
    labels = Map.copyOf(labels);
  }

  /** The name of the Secret that holds version {@code version} of release {@code name}. */
  public static String secretName(String name, int version) {
    return "sh.helm.release.v1." + name + ".v" + version;
  }

  /** {@code Secret 'namespace/name'}: how messages name this record. */
  public String where() {
    return "Secret '" + namespace + "/" + secretName + "'";
  }
}
