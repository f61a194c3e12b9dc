package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.applier.kustomize.HeldRoom;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.engine.source.SourceInputs;
import dev.capstan.engine.source.SourceRequests;
import dev.capstan.kube.ApiErrors;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.CommitSummary;
import dev.capstan.source.git.FetchRequest;
import dev.capstan.source.git.GitRef;
import dev.capstan.source.git.GitSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One recorded revision of a Kustomization's GitRepository, fetched and built as the engine's
 * source and build stages do it, with the client given (a user's, for the web view): the Secrets
 * the specs name are read with that client, so what it may not read fails here with the API
 * server's reason. Nothing is applied.
 */
public final class RevisionBuild {
  /** The stage that could not go on. */
  public enum Stage {
    SOURCE,
    BUILD
  }

  /** The outcome of {@link #build}. */
  public sealed interface Result {
    /** The commit's author and subject, when the commit was fetched. */
    Optional<CommitSummary> commit();
  }

  /**
   * @param objects the revision's objects, decrypted as the engine would apply them
   * @param redaction takes what was decrypted out of a text (a server's answer may quote it)
   * @param room what the objects hold of the builder's heap for results: close this once they are
   *     no longer used
   */
  public record Built(
      Optional<CommitSummary> commit,
      List<GenericKubernetesResource> objects,
      UnaryOperator<String> redaction,
      HeldRoom room)
      implements Result, AutoCloseable {
    public Built {
      objects = List.copyOf(objects);
    }

    @Override
    public void close() {
      room.close();
    }
  }

  /**
   * @param message what failed and where; holds no credentials and nothing decrypted
   */
  public record Failed(Stage stage, String message, Optional<CommitSummary> commit)
      implements Result {}

  private final GitSource source;
  private final ManifestBuilder builder;

  /**
   * @param source a store of the caller's own (never the engine's: what is fetched here was not
   *     checked by it)
   */
  public RevisionBuild(GitSource source, ManifestBuilder builder) {
    this.source = source;
    this.builder = builder;
  }

  /**
   * Fetches {@code revision} of {@code repo} and builds {@code ks}'s path of it.
   *
   * @param timeout the time the fetch may take (the build has its own limits)
   */
  public Result build(
      KubernetesClient client,
      Kustomization ks,
      GitRepository repo,
      String revision,
      Duration timeout) {
    if (repo.getSpec() == null || ks.getSpec() == null) {
      return new Failed(
          Stage.SOURCE, "the Kustomization or its GitRepository has no spec", Optional.empty());
    }
    if (!repo.getSpec().includes().isEmpty()) {
      return new Failed(
          Stage.SOURCE,
          "the GitRepository includes other GitRepositories (spec.include),"
              + " whose artifacts only the engine holds",
          Optional.empty());
    }
    String key = repo.getMetadata().getNamespace() + "/" + repo.getMetadata().getName();
    FetchRequest request;
    GitRef ref;
    try {
      request = SourceRequests.of(client, repo, key, Optional.of(timeout), r -> List.of());
      ref = RevisionRefs.of(request.ref(), revision);
    } catch (SourceInputs.Unavailable | IllegalArgumentException e) {
      return new Failed(Stage.SOURCE, e.getMessage(), Optional.empty());
    } catch (KubernetesClientException e) {
      return new Failed(
          Stage.SOURCE,
          "cannot read the GitRepository's Secrets: " + ApiErrors.refusal(e),
          Optional.empty());
    }
    FetchResult fetched = source.fetch(request.withRef(ref));
    if (fetched instanceof FetchResult.Failed failed) {
      return new Failed(Stage.SOURCE, failed.message(), Optional.empty());
    }
    StoredArtifact artifact = fetched.artifact().orElseThrow();
    Optional<CommitSummary> commit = source.commit(key, artifact.commitId());
    try {
      BuildStage.Built built =
          BuildStage.run(
              builder,
              PipelineSettings.DEFAULTS,
              ks.getSpec(),
              ks.getMetadata().getNamespace(),
              client,
              artifact.path(),
              artifact.digest(),
              artifact.revision());
      return new Built(commit, built.objects(), built.plaintexts()::redact, built.room());
    } catch (StageFailure e) {
      return new Failed(Stage.BUILD, e.getMessage(), commit);
    } catch (KubernetesClientException e) {
      return new Failed(
          Stage.BUILD,
          "cannot read what the Kustomization's spec names: " + ApiErrors.refusal(e),
          commit);
    }
  }
}
