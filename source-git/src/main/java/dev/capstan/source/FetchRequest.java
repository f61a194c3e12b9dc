package dev.capstan.source;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * One fetch of a Git source.
 *
 * @param key identifies the source across fetches (e.g. {@code namespace/name} of the
 *     GitRepository); fetches with the same key share a local repository cache
 * @param url the remote, in any of the supported URL forms
 * @param ref what to fetch
 * @param secretData the data of the referenced Secret (keys as documented in the module README);
 *     empty for anonymous access
 * @param ignore extra ignore rules in gitignore syntax ({@code spec.ignore}), or null
 * @param timeout the time the whole fetch may take, or null for the source's default
 */
public record FetchRequest(
    String key,
    String url,
    GitRef ref,
    Map<String, byte[]> secretData,
    String ignore,
    Duration timeout) {

  public FetchRequest {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(url, "url");
    ref = ref == null ? GitRef.defaultBranch() : ref;
    secretData = secretData == null ? Map.of() : Map.copyOf(secretData);
  }

  public static FetchRequest of(String key, String url, GitRef ref) {
    return new FetchRequest(key, url, ref, Map.of(), null, null);
  }

  public FetchRequest withSecret(Map<String, byte[]> data) {
    return new FetchRequest(key, url, ref, data, ignore, timeout);
  }

  public FetchRequest withIgnore(String rules) {
    return new FetchRequest(key, url, ref, secretData, rules, timeout);
  }

  public FetchRequest withTimeout(Duration t) {
    return new FetchRequest(key, url, ref, secretData, ignore, t);
  }

  public FetchRequest withRef(GitRef r) {
    return new FetchRequest(key, url, r, secretData, ignore, timeout);
  }

  @Override
  public String toString() {
    // Never print secret values.
    return "FetchRequest[key=" + key + ", url=" + Redaction.scrubUrl(url) + ", ref=" + ref.describe()
        + ", secretKeys=" + secretData.keySet() + "]";
  }
}
