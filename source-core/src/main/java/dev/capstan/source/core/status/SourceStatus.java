package dev.capstan.source.core.status;

import dev.capstan.source.core.store.StoredArtifact;
import java.util.List;
import java.util.Optional;

/**
 * The status of a GitRepository as the source module computes it.
 *
 * @param artifact the artifact consumers should use (absent until a first success)
 */
public record SourceStatus(
    long observedGeneration, List<Condition> conditions, Optional<StoredArtifact> artifact) {

  public SourceStatus {
    conditions = List.copyOf(conditions);
    artifact = artifact == null ? Optional.empty() : artifact;
  }

  public static SourceStatus empty() {
    return new SourceStatus(0, List.of(), Optional.empty());
  }

  public Optional<Condition> condition(String type) {
    return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
  }

  public boolean isReady() {
    return condition(Condition.READY).map(c -> c.status() == Condition.Status.TRUE).orElse(false);
  }
}
