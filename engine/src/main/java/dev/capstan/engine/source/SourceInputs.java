package dev.capstan.engine.source;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryInclude;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.git.Inclusion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a GitRepository's fetch reads from the cluster besides its own spec: the Secrets of {@code
 * spec.verify} and {@code spec.proxySecretRef}, and the artifacts of {@code spec.include} (same
 * namespace only).
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

  /**
   * The entries of the Secret {@code namespace/name} that {@code field} names.
   *
   * @throws Unavailable with {@code reason} when it does not exist or an entry is not Base64
   * @throws KubernetesClientException when the API server refuses the read or cannot be reached
   */
  static Map<String, byte[]> secretData(
      KubernetesClient client, String namespace, String name, String field, FailureReason reason) {
    try {
      if (name == null) {
        throw new Unavailable(reason, field + ": no Secret named");
      }
      return new SecretReader(client).read(namespace, name).values();
    } catch (SecretUnavailable e) {
      if (e.getCause() instanceof KubernetesClientException refused) {
        // as the API server answered: its status says forbidden or unreachable
        throw refused;
      }
      // Not terminal: the Secret may be created or mended later.
      throw new Unavailable(reason, field + ": " + e.getMessage());
    }
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
