package dev.capstan.engine.pipeline;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** GitRepositories and a GitRepository source kind for the fetch stage's tests. */
final class FakeGitSources {
  private FakeGitSources() {}

  /**
   * A GitRepository kind (interval 1m, timeout 60s) whose fetch is {@code fetch}, whose status
   * holds {@code inStatus}, and whose status writes run {@code written}.
   */
  static SourceKind<GitRepository> kind(
      Supplier<FetchResult> fetch, Optional<StoredArtifact> inStatus, Runnable written) {
    return new SourceKind<>() {
      @Override
      public String kind() {
        return "GitRepository";
      }

      @Override
      public SourceTimings timings(GitRepository source) {
        return new SourceTimings(Duration.ofMinutes(1), Optional.of(Duration.ofSeconds(60)));
      }

      @Override
      public FetchResult fetch(GitRepository source, SourceTimings timings) {
        return fetch.get();
      }

      @Override
      public Optional<StoredArtifact> lastArtifact(GitRepository source) {
        return inStatus;
      }

      @Override
      public void writeStatus(GitRepository source, FetchResult result) {
        written.run();
      }
    };
  }

  /** {@link #source} with a status that names {@code artifact}. */
  static GitRepository sourceWith(String namespace, StoredArtifact artifact) {
    GitRepository source = source(namespace, false);
    source.setStatus(
        Serialization.unmarshal(
            """
            artifact: {revision: "%s", digest: "%s", path: "gitrepository/%s/repo", url: ""}
            """
                .formatted(artifact.revision(), artifact.digest(), namespace),
            GitRepositoryStatus.class));
    return source;
  }

  /** GitRepository {@code repo} of {@code namespace}, interval 1m, suspended or not. */
  static GitRepository source(String namespace, boolean suspend) {
    return Serialization.unmarshal(
        """
        apiVersion: source.capstan.dev/v1
        kind: GitRepository
        metadata: {name: repo, namespace: %s, uid: %s-repo}
        spec: {url: "https://git.example/repo", interval: 1m, suspend: %s}
        """
            .formatted(namespace, namespace, suspend),
        GitRepository.class);
  }
}
