package dev.capstan.engine.source;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryInclude;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.git.Inclusion;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/**
 * What a GitRepository's fetch reads from the cluster besides its own spec and its Secrets ({@link
 * SpecSecrets}): the artifacts of {@code spec.include} (same namespace only).
 */
public final class SourceInputs {

  /** An input is missing or unusable; the fetch is not attempted. */
  public static final class Unavailable extends RuntimeException {
    private final FailureReason reason;

    Unavailable(FailureReason reason, String message) {
      super(message, null, false, false);
      this.reason = reason;
    }

    FailureReason reason() {
      return reason;
    }
  }

  private final KubernetesClient client;

  SourceInputs(KubernetesClient client) {
    this.client = client;
  }

  /** The included artifacts, in spec order; refuses missing, not-ready and cyclic includes. */
  List<Inclusion> resolve(GitRepository repo) {
    var spec = repo.getSpec();
    if (spec.includes().isEmpty()) {
      return List.of();
    }
    String namespace = repo.getMetadata().getNamespace();
    String self = repo.getMetadata().getName();
    IncludeChains.refuseCyclesAndDeepChains(
        self,
        name -> {
          GitRepository found = name.equals(self) ? repo : get(namespace, name);
          return found == null || found.getSpec() == null
              ? null
              : found.getSpec().includes().stream().map(i -> i.repository().name()).toList();
        });
    List<Inclusion> result = new ArrayList<>();
    for (GitRepositoryInclude include : spec.includes()) {
      String name = include.repository().name();
      GitRepository included = get(namespace, name);
      if (included == null) {
        throw new Unavailable(
            FailureReason.INCLUDE_UNAVAILABLE,
            "included GitRepository '" + namespace + "/" + name + "' not found");
      }
      var artifact = included.getStatus() == null ? null : included.getStatus().artifact();
      if (artifact == null || artifact.digest() == null || artifact.revision() == null) {
        throw new Unavailable(
            FailureReason.INCLUDE_UNAVAILABLE,
            "included GitRepository '" + namespace + "/" + name + "' has no artifact yet");
      }
      result.add(
          new Inclusion(
              name, artifact.revision(), artifact.digest(), include.fromPath(), include.toPath()));
    }
    return result;
  }

  private GitRepository get(String namespace, String name) {
    return client.resources(GitRepository.class).inNamespace(namespace).withName(name).get();
  }
}
