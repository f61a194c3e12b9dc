package dev.capstan.engine.remote;

/**
 * The remote cluster of a Kustomization or HelmRelease cannot be used: its kubeconfig or ConfigMap
 * is missing, malformed or refused, or its API server cannot be reached. The message is for the
 * object's status: it names what is wrong and where, never a credential.
 */
public final class RemoteClusterException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean referenceMissing;

  public RemoteClusterException(String message) {
    this(message, false);
  }

  /** {@code referenceMissing}: the Secret or ConfigMap that describes the cluster is not there. */
  public RemoteClusterException(String message, boolean referenceMissing) {
    super(message, null, false, false);
    this.referenceMissing = referenceMissing;
  }

  /**
   * Whether the Secret or ConfigMap naming the cluster does not exist: the cluster may be gone with
   * it, where a deletion need not wait for it.
   */
  public boolean referenceMissing() {
    return referenceMissing;
  }
}
