package dev.capstan.source.git;

import dev.capstan.source.core.Redaction;
import dev.capstan.source.git.verify.Verification;
import java.time.Duration;
import java.util.List;
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
 * @param verification signatures to check before a revision is stored, or null
 * @param includes other sources' artifacts to copy into the artifact, in order
 * @param sparseCheckout directories that go into the artifact; all when empty
 * @param recurseSubmodules whether submodules are fetched into the artifact
 * @param proxy the data of the proxy Secret ({@code address}, optional {@code username} and {@code
 *     password}); empty for a direct connection
 */
public record FetchRequest(
    String key,
    String url,
    GitRef ref,
    Map<String, byte[]> secretData,
    String ignore,
    Duration timeout,
    Verification verification,
    List<Inclusion> includes,
    List<String> sparseCheckout,
    boolean recurseSubmodules,
    Map<String, byte[]> proxy) {

  public FetchRequest {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(url, "url");
    ref = ref == null ? GitRef.defaultBranch() : ref;
    secretData = secretData == null ? Map.of() : Map.copyOf(secretData);
    includes = includes == null ? List.of() : List.copyOf(includes);
    sparseCheckout = sparseCheckout == null ? List.of() : List.copyOf(sparseCheckout);
    proxy = proxy == null ? Map.of() : Map.copyOf(proxy);
  }

  public FetchRequest(
      String key,
      String url,
      GitRef ref,
      Map<String, byte[]> secretData,
      String ignore,
      Duration timeout) {
    this(key, url, ref, secretData, ignore, timeout, null, null, null, false, null);
  }

  public static FetchRequest of(String key, String url, GitRef ref) {
    return new FetchRequest(key, url, ref, Map.of(), null, null);
  }

  public FetchRequest withSecret(Map<String, byte[]> data) {
    return new FetchRequest(
        key,
        url,
        ref,
        data,
        ignore,
        timeout,
        verification,
        includes,
        sparseCheckout,
        recurseSubmodules,
        proxy);
  }

  public FetchRequest withIgnore(String rules) {
    return new FetchRequest(
        key,
        url,
        ref,
        secretData,
        rules,
        timeout,
        verification,
        includes,
        sparseCheckout,
        recurseSubmodules,
        proxy);
  }

  public FetchRequest withTimeout(Duration t) {
    return new FetchRequest(
        key,
        url,
        ref,
        secretData,
        ignore,
        t,
        verification,
        includes,
        sparseCheckout,
        recurseSubmodules,
        proxy);
  }

  public FetchRequest withRef(GitRef r) {
    return new FetchRequest(
        key,
        url,
        r,
        secretData,
        ignore,
        timeout,
        verification,
        includes,
        sparseCheckout,
        recurseSubmodules,
        proxy);
  }

  public FetchRequest withVerification(Verification v) {
    return new FetchRequest(
        key,
        url,
        ref,
        secretData,
        ignore,
        timeout,
        v,
        includes,
        sparseCheckout,
        recurseSubmodules,
        proxy);
  }

  public FetchRequest withIncludes(List<Inclusion> i) {
    return new FetchRequest(
        key,
        url,
        ref,
        secretData,
        ignore,
        timeout,
        verification,
        i,
        sparseCheckout,
        recurseSubmodules,
        proxy);
  }

  public FetchRequest withSparseCheckout(List<String> dirs) {
    return new FetchRequest(
        key,
        url,
        ref,
        secretData,
        ignore,
        timeout,
        verification,
        includes,
        dirs,
        recurseSubmodules,
        proxy);
  }

  public FetchRequest withRecurseSubmodules(boolean recurse) {
    return new FetchRequest(
        key,
        url,
        ref,
        secretData,
        ignore,
        timeout,
        verification,
        includes,
        sparseCheckout,
        recurse,
        proxy);
  }

  public FetchRequest withProxy(Map<String, byte[]> data) {
    return new FetchRequest(
        key,
        url,
        ref,
        secretData,
        ignore,
        timeout,
        verification,
        includes,
        sparseCheckout,
        recurseSubmodules,
        data);
  }

  @Override
  public String toString() {
    // Never print secret values.
    return "FetchRequest[key="
        + key
        + ", url="
        + Redaction.scrubUrl(url)
        + ", ref="
        + ref.describe()
        + ", secretKeys="
        + secretData.keySet()
        + ", proxyKeys="
        + proxy.keySet()
        + "]";
  }
}
