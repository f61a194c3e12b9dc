package dev.capstan.source.core.status;

import java.time.Instant;

/** A Kubernetes-style condition, as written on a GitRepository's status. */
public record Condition(
    String type,
    Status status,
    String reason,
    String message,
    long observedGeneration,
    Instant lastTransitionTime) {

  public enum Status {
    TRUE("True"),
    FALSE("False"),
    UNKNOWN("Unknown");

    private final String text;

    Status(String text) {
      this.text = text;
    }

    /** The value as Kubernetes spells it. */
    public String text() {
      return text;
    }
  }

  public static final String READY = "Ready";
  public static final String ARTIFACT_IN_STORAGE = "ArtifactInStorage";
  public static final String FETCH_FAILED = "FetchFailed";

  /** True while a HelmChart's chart was fetched but could not be built (values, packaging). */
  public static final String BUILD_FAILED = "BuildFailed";

  public static final String STALLED = "Stalled";

  /** Whether the artifact's revision passed {@code spec.verify}; absent without it. */
  public static final String SOURCE_VERIFIED = "SourceVerified";

  /** An included GitRepository is unavailable; present only while that is so. */
  public static final String INCLUDE_UNAVAILABLE = "IncludeUnavailable";
}
