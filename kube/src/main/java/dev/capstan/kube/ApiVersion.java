package dev.capstan.kube;

/**
 * An apiVersion read as its group and version: {@code apps/v1} is group {@code apps}, version
 * {@code v1}; {@code v1}, without a slash, is the core group, whose name is empty.
 */
public record ApiVersion(String group, String version) {

  /** Splits at the first slash; text without one is a version of the core group. */
  public static ApiVersion of(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0
        ? new ApiVersion("", apiVersion)
        : new ApiVersion(apiVersion.substring(0, slash), apiVersion.substring(slash + 1));
  }

  /** {@code group/version}, or the version alone for the core group: the apiVersion field. */
  @Override
  public String toString() {
    return group.isEmpty() ? version : group + "/" + version;
  }
}
