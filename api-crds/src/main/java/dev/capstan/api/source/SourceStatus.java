package dev.capstan.api.source;

import dev.capstan.api.common.ReconciledStatus;

/**
 * What the status of every source kind Capstan fetches holds (GitRepository, OCIRepository), read
 * the same way wherever a source is shown.
 */
public interface SourceStatus extends ReconciledStatus {

  Artifact artifact();

  /** The revision of the source's artifact; null while there is none. */
  static String revisionOf(SourceStatus status) {
    return status == null || status.artifact() == null ? null : status.artifact().revision();
  }
}
