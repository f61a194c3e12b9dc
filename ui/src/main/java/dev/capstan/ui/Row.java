package dev.capstan.ui;

/**
 * One line of the overview: a Kustomization, a HelmRelease or a source (GitRepository,
 * OCIRepository, HelmRepository, ...) as the page shows it.
 *
 * @param ready status of the Ready condition: True, False or Unknown
 * @param healthy status of the Healthy condition (Kustomizations, HelmReleases); empty for a source
 * @param revision the applied or fetched revision; a HelmRelease's chart name and version
 * @param release a HelmRelease's current release version (its newest {@code status.history}
 *     snapshot); empty for other kinds or before the first release
 * @param lastChange the latest transition time of any condition, RFC 3339, or empty
 * @param replica the replica of a sharded engine that owns a Kustomization (its owner label, as
 *     {@code kubectl get ks -o wide} shows it as REPLICA); empty otherwise
 */
record Row(
    String kind,
    String namespace,
    String name,
    String ready,
    String reason,
    String message,
    String healthy,
    String revision,
    String release,
    boolean suspended,
    String lastChange,
    String replica) {

  boolean countsAsReady() {
    return "True".equals(ready);
  }

  boolean countsAsUnhealthy() {
    return "False".equals(healthy);
  }
}
