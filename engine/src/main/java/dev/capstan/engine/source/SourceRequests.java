package dev.capstan.engine.source;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositorySpec;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.git.FetchRequest;
import dev.capstan.source.git.GitProvider;
import dev.capstan.source.git.GitRef;
import dev.capstan.source.git.Inclusion;
import dev.capstan.source.git.verify.Verification;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The fetch a GitRepository's spec asks for: its URL and ref, and the data of the Secrets it names
 * (credentials, verification keys, proxy), read with the client given ({@link SpecSecrets}).
 */
public final class SourceRequests {
  private SourceRequests() {}

  /**
   * @param key the artifact store's key of the source
   * @param includes the artifacts of {@code spec.include}, in spec order
   * @throws SourceInputs.Unavailable when a Secret the spec names does not exist or an include
   *     cannot be used
   */
  public static FetchRequest of(
      KubernetesClient client,
      GitRepository repo,
      String key,
      Optional<Duration> timeout,
      Function<GitRepository, List<Inclusion>> includes) {
    GitRepositorySpec spec = repo.getSpec();
    var ref = spec.ref();
    GitRef gitRef =
        ref == null
            ? GitRef.defaultBranch()
            : new GitRef(ref.branch(), ref.tag(), ref.semver(), ref.name(), ref.commit());
    GitProvider provider = provider(spec);
    SpecSecrets secrets = new SpecSecrets(client, repo);
    FetchRequest request =
        FetchRequest.of(key, spec.url(), gitRef)
            .withIgnore(spec.ignore())
            .withSecretData(
                secrets.readIfNamed(
                    spec.secretRef(), "spec.secretRef", FailureReason.AUTHENTICATION_FAILED))
            .withSparseCheckout(spec.sparseCheckout())
            .withRecurseSubmodules(spec.recursesSubmodules())
            .withProvider(provider)
            .withVerification(verification(secrets, spec))
            .withProxy(
                secrets.readIfNamed(
                    spec.proxySecretRef(),
                    "spec.proxySecretRef",
                    FailureReason.GIT_OPERATION_FAILED));
    if (timeout.isPresent()) {
      request = request.withTimeout(timeout.get());
    }
    return request.withIncludes(includes.apply(repo));
  }

  /**
   * {@code spec.provider}: generic or github; the cloud identities Flux also offers (azure, aws,
   * with {@code serviceAccountName}) are refused by name before any Secret is read.
   */
  private static GitProvider provider(GitRepositorySpec spec) {
    return switch (spec.effectiveProvider()) {
      case generic -> GitProvider.GENERIC;
      case github -> GitProvider.GITHUB;
      case azure, aws ->
          throw new SourceInputs.Unavailable(
              FailureReason.INVALID_SPEC,
              "spec.provider '"
                  + spec.effectiveProvider()
                  + "' is not supported: this engine has no cloud identity"
                  + (spec.serviceAccountName() == null
                      ? ""
                      : " (spec.serviceAccountName '" + spec.serviceAccountName() + "' is unused)")
                  + "; use 'generic' with spec.secretRef, or 'github' for a GitHub App");
    };
  }

  /** {@code spec.verify}, or null when the spec asks for no verification. */
  private static Verification verification(SpecSecrets secrets, GitRepositorySpec spec) {
    if (spec.verify() == null) {
      return null;
    }
    Verification.Mode mode;
    try {
      mode = Verification.Mode.parse(spec.verify().mode());
    } catch (RuntimeException e) {
      throw new SourceInputs.Unavailable(FailureReason.INVALID_SPEC, e.getMessage());
    }
    String name = spec.verify().secretRef() == null ? null : spec.verify().secretRef().name();
    return new Verification(
        mode, secrets.read(name, "spec.verify.secretRef", FailureReason.VERIFICATION_FAILED));
  }
}
