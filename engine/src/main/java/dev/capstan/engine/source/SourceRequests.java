package dev.capstan.engine.source;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositorySpec;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.git.FetchRequest;
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
 * (credentials, verification keys, proxy), read with the client given: the engine's for the source
 * stage, a user's for the view.
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
    String namespace = repo.getMetadata().getNamespace();
    var ref = spec.ref();
    GitRef gitRef =
        ref == null
            ? GitRef.defaultBranch()
            : new GitRef(ref.branch(), ref.tag(), ref.semver(), ref.name(), ref.commit());
    FetchRequest request = FetchRequest.of(key, spec.url(), gitRef).withIgnore(spec.ignore());
    if (timeout.isPresent()) {
      request = request.withTimeout(timeout.get());
    }
    if (spec.secretRef() != null) {
      request =
          request.withSecretData(
              SourceInputs.secretData(
                  client,
                  namespace,
                  spec.secretRef().name(),
                  "spec.secretRef",
                  FailureReason.AUTHENTICATION_FAILED));
    }
    request =
        request
            .withSparseCheckout(spec.sparseCheckout())
            .withRecurseSubmodules(spec.recursesSubmodules());
    request = withVerification(client, request, namespace, spec);
    request = withProxy(client, request, namespace, spec);
    return request.withIncludes(includes.apply(repo));
  }

  private static FetchRequest withVerification(
      KubernetesClient client, FetchRequest request, String namespace, GitRepositorySpec spec) {
    if (spec.verify() == null) {
      return request;
    }
    Verification.Mode mode;
    try {
      mode = Verification.Mode.parse(spec.verify().mode());
    } catch (RuntimeException e) {
      throw new SourceInputs.Unavailable(FailureReason.INVALID_SPEC, e.getMessage());
    }
    String name = spec.verify().secretRef() == null ? null : spec.verify().secretRef().name();
    return request.withVerification(
        new Verification(
            mode,
            SourceInputs.secretData(
                client,
                namespace,
                name,
                "spec.verify.secretRef",
                FailureReason.VERIFICATION_FAILED)));
  }

  private static FetchRequest withProxy(
      KubernetesClient client, FetchRequest request, String namespace, GitRepositorySpec spec) {
    if (spec.proxySecretRef() == null) {
      return request;
    }
    return request.withProxy(
        SourceInputs.secretData(
            client,
            namespace,
            spec.proxySecretRef().name(),
            "spec.proxySecretRef",
            FailureReason.GIT_OPERATION_FAILED));
  }
}
