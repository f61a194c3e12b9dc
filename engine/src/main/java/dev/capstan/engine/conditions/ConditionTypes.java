package dev.capstan.engine.conditions;

/** The condition types Capstan writes on a Kustomization. */
public final class ConditionTypes {
  public static final String READY = "Ready";
  public static final String HEALTHY = "Healthy";
  public static final String RECONCILING = "Reconciling";
  public static final String STALLED = "Stalled";

  /** Objects changed in the cluster by another writer, reported (drift detection mode warn). */
  public static final String DRIFTED = "Drifted";

  /** How the Helm tests of a HelmRelease's deployed release ended. */
  public static final String TEST_SUCCESS = "TestSuccess";

  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  private ConditionTypes() {}
}
