package dev.capstan.api.source;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * What the status of every source kind Capstan fetches holds (GitRepository, OCIRepository), read
 * the same way wherever a source is shown.
 */
public interface SourceStatus {

  Long observedGeneration();

  List<Condition> conditions();

  Artifact artifact();

  String lastHandledReconcileAt();

  /** The revision of the source's artifact; null while there is none. */
  static String revisionOf(SourceStatus status) {
    return status == null || status.artifact() == null ? null : status.artifact().revision();
  }
}
