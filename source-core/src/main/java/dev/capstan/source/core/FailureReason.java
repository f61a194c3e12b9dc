package dev.capstan.source.core;

/** Why a fetch failed; {@link #conditionReason()} is the reason written on the Ready condition. */
public enum FailureReason {
  /**
   * The URL is malformed, uses a scheme the source does not allow, or would carry credentials over
   * plain http.
   */
  INVALID_URL("URLInvalid", true),
  /** The ref is unusable as given, e.g. an invalid semver range or a malformed commit id. */
  INVALID_REF("InvalidRef", true),
  /** The Secret's data is incomplete or malformed (e.g. an unreadable private key). */
  INVALID_SECRET("InvalidSecret", true),
  /** Another field of the GitRepository is unusable, e.g. an interval of 0s. */
  INVALID_SPEC("InvalidSpec", true),
  /** The remote refused the credentials, or none were given where required. */
  AUTHENTICATION_FAILED("AuthenticationFailed", false),
  /** The SSH host key is not in {@code known_hosts}, or does not match it. */
  HOST_KEY_REJECTED("HostKeyVerificationFailed", false),
  /** The branch, tag, name, commit or semver range matches nothing on the remote. */
  REF_NOT_FOUND("RefNotFound", false),
  /** A signature required by {@code spec.verify} is missing, unknown or does not match. */
  VERIFICATION_FAILED("VerificationError", false),
  /** An included GitRepository is missing, has no artifact yet, or its artifact is gone. */
  INCLUDE_UNAVAILABLE("IncludeUnavailable", false),
  /** The filtered tree is larger than the configured limit. */
  SIZE_LIMIT_EXCEEDED("SizeLimitExceeded", false),
  /** The fetch did not finish within its timeout. */
  TIMEOUT("GitOperationTimeout", false),
  /** Any other Git or network failure (unreachable host, repository not found, ...). */
  GIT_OPERATION_FAILED("GitOperationFailed", false),
  /** An OCI registry could not be read: the manifest or a blob (Flux's OCIArtifactPullFailed). */
  OCI_PULL_FAILED("OCIArtifactPullFailed", false),
  /**
   * The OCI artifact has no usable layer, or its layer cannot be unpacked or does not match its
   * digest (Flux's OCIArtifactLayerOperationFailed).
   */
  OCI_LAYER_FAILED("OCIArtifactLayerOperationFailed", false),
  /** The tags of an OCI repository could not be listed (Flux's ReadOperationFailed). */
  READ_OPERATION_FAILED("ReadOperationFailed", false),
  /**
   * A Helm repository's index could not be downloaded: unreachable, refused, too large or too slow
   * (Flux's generic Failed, as its HelmRepository reports a failed download).
   */
  INDEX_FETCH_FAILED("Failed", false),
  /**
   * A Helm repository's index was downloaded but is no index: not YAML, the wrong apiVersion, no
   * entries, or past a bound (Flux's IndexationFailed).
   */
  INDEXATION_FAILED("IndexationFailed", false),
  /**
   * A bucket could not be listed or an object of it downloaded: unreachable, missing, refused, or
   * an object whose key would leave the artifact (Flux's BucketOperationFailed).
   */
  BUCKET_OPERATION_FAILED("BucketOperationFailed", false),
  /** A HelmChart's source does not exist or cannot be read (Flux's SourceUnavailable). */
  SOURCE_UNAVAILABLE("SourceUnavailable", false),
  /** A HelmChart's source has no artifact yet (Flux's NoSourceArtifact). */
  NO_SOURCE_ARTIFACT("NoSourceArtifact", false),
  /** A HelmChart names a kind of source the engine has not (Flux's UnsupportedSourceKind). */
  UNSUPPORTED_SOURCE_KIND("UnsupportedSourceKind", true),
  /**
   * A HelmChart's chart or version is not in its repository's index, or its chart path is no chart
   * (Flux's InvalidChartReference, which waits for a change).
   */
  INVALID_CHART_REFERENCE("InvalidChartReference", true),
  /**
   * A chart could not be downloaded, or what was downloaded is no chart: too large, truncated, not
   * a gzip tar, a path leaving the chart, a link, the wrong name or version (Flux's
   * ChartPullError).
   */
  CHART_PULL_FAILED("ChartPullError", false),
  /** A values file is missing or no YAML mapping (Flux's ValuesFilesError, persistent). */
  VALUES_FILES_FAILED("ValuesFilesError", true),
  /** A chart's dependency cannot be resolved (Flux's DependencyBuildError). */
  DEPENDENCY_BUILD_FAILED("DependencyBuildError", false),
  /** A chart directory cannot be packaged (Flux's ChartPackageError). */
  CHART_PACKAGE_FAILED("ChartPackageError", false),
  /** The artifact could not be written to local storage. */
  STORAGE_FAILED("StorageOperationFailed", false);

  private final String conditionReason;
  private final boolean needsSpecChange;

  FailureReason(String conditionReason, boolean needsSpecChange) {
    this.conditionReason = conditionReason;
    this.needsSpecChange = needsSpecChange;
  }

  public String conditionReason() {
    return conditionReason;
  }

  /**
   * True for a failure to build a chart from what was fetched, which Flux reports as {@code
   * BuildFailed} rather than {@code FetchFailed}.
   */
  public boolean buildFailure() {
    return this == VALUES_FILES_FAILED
        || this == DEPENDENCY_BUILD_FAILED
        || this == CHART_PACKAGE_FAILED;
  }

  /** True when retrying without a change to the GitRepository or its Secret cannot help. */
  public boolean needsSpecChange() {
    return needsSpecChange;
  }
}
