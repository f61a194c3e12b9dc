package dev.capstan.ui;

import java.util.List;

/**
 * What a Kustomization's page shows.
 *
 * @param history the Kustomization's Events, newest first: how its conditions changed
 * @param inventory the applied objects, namespace → kind → object, each with its live status
 * @param inventoryNote why the inventory is incomplete or absent; empty when it is whole
 * @param reconciles the last reconciles ({@code status.history}), most recent first
 */
record Details(
    Row row,
    List<ConditionLine> conditions,
    List<EventLine> history,
    String historyNote,
    List<NamespaceGroup> inventory,
    String inventoryNote,
    Source source,
    List<ReconcileLine> reconciles) {

  /**
   * One entry of {@code status.history}: how reconciles of one applied set ended, how often, when.
   */
  record ReconcileLine(
      String status,
      long count,
      String revision,
      String originRevision,
      String digest,
      String firstReconciled,
      String lastReconciled,
      String duration) {}

  record ConditionLine(
      String type, String status, String reason, String message, String lastTransitionTime) {}

  record EventLine(String type, String reason, String message, int count, String lastSeen) {}

  record NamespaceGroup(String namespace, List<KindGroup> kinds) {}

  record KindGroup(String kind, List<ObjectLine> objects) {}

  /**
   * @param reason the rule's reason (kstatus reason or check name); the health module decided it
   */
  record ObjectLine(String name, String status, String reason, String message) {}

  /**
   * @param note what is shown, when the GitRepository does not record more
   */
  record Source(String kind, String namespace, String name, String revision, String note) {}
}
