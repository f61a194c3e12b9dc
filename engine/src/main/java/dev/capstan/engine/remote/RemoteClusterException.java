package dev.capstan.engine.remote;

/**
 * The remote cluster of a Kustomization cannot be used: its kubeconfig or ConfigMap is missing,
 * malformed or refused, or its API server cannot be reached. The message is for the Kustomization's
 * status: it names what is wrong and where, never a credential.
 */
public final class RemoteClusterException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RemoteClusterException(String message) {
    super(message, null, false, false);
  }
}
