package dev.capstan.api.common;

/**
 * The annotation that asks for a reconcile now, on a Kustomization or a GitRepository; its value
 * is echoed in {@code status.lastHandledReconcileAt} once handled.
 */
public final class ReconcileRequest {
  public static final String ANNOTATION = "reconcile.capstan.dev/requestedAt";

  private ReconcileRequest() {}
}
