package dev.capstan.source.status;

import dev.capstan.source.Artifact;
import java.util.List;
import java.util.Optional;

/**
 * The status of a GitRepository as the source module computes it.
 *
 * @param artifact the artifact consumers should use (absent until a first success)
 */
public record GitRepositoryStatus(
    long observedGeneration, List<Condition> conditions, Optional<Artifact> artifact) {

  public GitRepositoryStatus {
    conditions = List.copyOf(conditions);
    artifact = artifact == null ? Optional.empty() : artifact;
  }

  public static GitRepositoryStatus empty() {
    return new GitRepositoryStatus(0, List.of(), Optional.empty());
  }

  public Optional<Condition> condition(String type) {
    return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
  }

  public boolean isReady() {
    return condition(Condition.READY).map(c -> c.status() == Condition.Status.TRUE)
        .orElse(false);
  }
}
