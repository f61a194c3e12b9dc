package dev.capstan.source.git;

import dev.capstan.source.core.FetchTarget;
import dev.capstan.source.git.verify.Verification;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One fetch of a Git source.
 *
 * @param target the source's key, URL, ignore rules, timeout and proxy: what every kind of fetch
 *     names
 * @param ref what to fetch
 * @param secretData the data of the referenced Secret (keys as documented in the module README);
 *     empty for anonymous access
 * @param verification signatures to check before a revision is stored, or null
 * @param includes other sources' artifacts to copy into the artifact, in order
 * @param sparseCheckout directories that go into the artifact; all when empty
 * @param recurseSubmodules whether submodules are fetched into the artifact
 * @param provider who provides the credentials: the Secret's own, or a GitHub App it names
 */
@RecordBuilder
public record FetchRequest(
    FetchTarget target,
    GitRef ref,
    Map<String, byte[]> secretData,
    Verification verification,
    List<Inclusion> includes,
    List<String> sparseCheckout,
    boolean recurseSubmodules,
    GitProvider provider)
    implements FetchRequestBuilder.With {

  public FetchRequest {
    Objects.requireNonNull(target, "target");
    ref = ref == null ? GitRef.defaultBranch() : ref;
    secretData = secretData == null ? Map.of() : Map.copyOf(secretData);
    includes = includes == null ? List.of() : List.copyOf(includes);
    sparseCheckout = sparseCheckout == null ? List.of() : List.copyOf(sparseCheckout);
    provider = provider == null ? GitProvider.GENERIC : provider;
  }

  public static FetchRequest of(String key, String url, GitRef ref) {
    return new FetchRequest(FetchTarget.of(key, url), ref, null, null, null, null, false, null);
  }

  public FetchRequest withIgnore(String rules) {
    return withTarget(target.withIgnore(rules));
  }

  public FetchRequest withTimeout(Duration limit) {
    return withTarget(target.withTimeout(limit));
  }

  public FetchRequest withProxy(Map<String, byte[]> data) {
    return withTarget(target.withProxy(data));
  }

  @Override
  public String toString() {
    // Never print secret values.
    return "FetchRequest["
        + target
        + ", ref="
        + ref.describe()
        + ", secretKeys="
        + secretData.keySet()
        + ", provider="
        + provider
        + "]";
  }
}
