package dev.capstan.engine.conditions;

/** The reasons a HelmRelease's conditions give, as Flux's helm-controller names them. */
public enum ReleaseReason {
  INSTALL_SUCCEEDED("InstallSucceeded"),
  UPGRADE_SUCCEEDED("UpgradeSucceeded"),
  INSTALL_FAILED("InstallFailed"),
  UPGRADE_FAILED("UpgradeFailed"),
  /** What spec.dependsOn names is not ready yet. */
  DEPENDENCY_NOT_READY("DependencyNotReady"),
  /** spec.dependsOn leads back to this HelmRelease. */
  DEPENDENCY_CYCLE("DependencyCycle"),
  /** A dependsOn readyExpr does not compile. */
  INVALID_CEL_EXPRESSION("InvalidCELExpression"),
  /** The chart's source has no artifact yet, or is not ready. */
  SOURCE_NOT_READY("SourceNotReady"),
  /** The chart's source cannot be read or made. */
  ARTIFACT_FAILED("ArtifactFailed"),
  /** An OCI chart's version is not that of the tag its artifact was pulled by. */
  CHART_MUTATE_ERROR("ChartMutateError"),
  /** A reference the engine's tenancy rules refuse (a source in another namespace). */
  ACCESS_DENIED("AccessDenied"),
  /** The remote cluster of spec.kubeConfig cannot be used: its kubeconfig or API server. */
  REST_CLIENT_ERROR("RESTClientError"),
  /** The values could not be composed, or the spec cannot be used. */
  INIT_FAILED("InitFailed"),
  /** The release's objects are not all healthy yet. */
  PROGRESSING("Progressing"),
  HEALTHY("Healthy"),
  HEALTH_CHECK_FAILED("HealthCheckFailed"),
  /** The objects of the release could not be deleted. */
  UNINSTALL_FAILED("UninstallFailed"),
  /** A failed release was rolled back to the last deployed one. */
  ROLLBACK_SUCCEEDED("RollbackSucceeded"),
  ROLLBACK_FAILED("RollbackFailed"),
  /** A failed release was uninstalled. */
  UNINSTALL_SUCCEEDED("UninstallSucceeded"),
  /** No retry of a failed install or upgrade remains: stalled until the spec changes. */
  RETRIES_EXCEEDED("RetriesExceeded"),
  /** A failed upgrade is to be rolled back and no deployed release is there to roll back to. */
  MISSING_ROLLBACK_TARGET("MissingRollbackTarget"),
  /** Every Helm test of the release succeeded. */
  TEST_SUCCEEDED("TestSucceeded"),
  /** A Helm test of the release failed. */
  TEST_FAILED("TestFailed"),
  /** The release's Helm tests have not run yet. */
  AWAITING_TESTS("AwaitingTests"),
  /** Objects of an unchanged release were changed or deleted by another writer, and left so. */
  DRIFT_DETECTED("DriftDetected"),
  /** The objects of an unchanged release are as the release made them. */
  NO_DRIFT_DETECTED("NoDriftDetected"),
  /** Drifted objects were applied again. */
  DRIFT_CORRECTED("DriftCorrected"),
  /** Some drifted objects could not be applied again. */
  DRIFT_CORRECTION_FAILED("DriftCorrectionFailed"),
  /** The objects could not be compared with the cluster: whether they drifted is not known. */
  DRIFT_DETECTION_FAILED("DriftDetectionFailed");

  private final String text;

  ReleaseReason(String text) {
    this.text = text;
  }

  /** The reason as a condition carries it. */
  public String text() {
    return text;
  }
}
