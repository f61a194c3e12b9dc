package dev.capstan.cli.faults;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the fault bench saw at one moment, everything {@link FaultInvariants} needs and nothing
 * else: the repository's latest revision and what it holds, the Kustomizations' status, the objects
 * in the cluster, the deletions recorded from a watch, and the engine's threads and memory.
 *
 * @param revision the Git repository's latest revision, as its Kustomizations report it ({@code
 *     main@sha1:...})
 * @param otherRevisions per Kustomization of another source (the registry's), its source's latest
 *     revision ({@code live@sha256:...}); the others' is {@code revision}
 * @param expected per Kustomization, its objects and their values at {@code revision}
 * @param failing the Kustomizations that fail on purpose (their source is broken)
 * @param kustomizations per Kustomization, what its status says
 * @param cluster the applied objects in the cluster, by name
 * @param removedAt when the repository first stopped holding an object (names are never reused)
 * @param deletions every deletion of an applied object seen during the run
 * @param steady the engine's threads and memory in its steady state (taken after a warm-up, and
 *     again for a new engine after a kill), or null when no leak is checked (between rounds)
 * @param now the engine's threads and memory at this moment, or null when no leak is checked
 */
public record FaultObservation(
    String revision,
    Map<String, String> otherRevisions,
    Map<String, Map<String, String>> expected,
    Set<String> failing,
    Map<String, KustomizationState> kustomizations,
    Map<String, AppliedObject> cluster,
    Map<String, Instant> removedAt,
    List<Deletion> deletions,
    ResourceUse steady,
    ResourceUse now) {

  /** An observation of Kustomizations of the Git repository only. */
  public FaultObservation(
      String revision,
      Map<String, Map<String, String>> expected,
      Set<String> failing,
      Map<String, KustomizationState> kustomizations,
      Map<String, AppliedObject> cluster,
      Map<String, Instant> removedAt,
      List<Deletion> deletions,
      ResourceUse steady,
      ResourceUse now) {
    this(
        revision,
        Map.of(),
        expected,
        failing,
        kustomizations,
        cluster,
        removedAt,
        deletions,
        steady,
        now);
  }

  /** The latest revision of {@code kustomization}'s source, as it reports it. */
  public String revisionOf(String kustomization) {
    return otherRevisions.getOrDefault(kustomization, revision);
  }

  /** A Kustomization's Ready condition, the revision it last applied and its inventory's names. */
  public record KustomizationState(
      String ready, String reason, String lastAppliedRevision, Set<String> inventory) {}

  /** An object in the cluster: the Kustomization whose label it carries, and its value. */
  public record AppliedObject(String owner, String value) {}

  /** An object's deletion, as the watch saw it. */
  public record Deletion(String name, Instant at) {}

  /** A process's thread count and resident memory. */
  public record ResourceUse(int threads, long rssKib) {
    /** The higher threads and the higher memory of this and {@code other}. */
    public ResourceUse atLeast(ResourceUse other) {
      return new ResourceUse(Math.max(threads, other.threads), Math.max(rssKib, other.rssKib));
    }
  }
}
