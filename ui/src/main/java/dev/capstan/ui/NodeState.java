package dev.capstan.ui;

/** How a node of the graph is coloured, from the worst to the best. */
enum NodeState {
  /** Ready is False, or Healthy is False. */
  FAILING("failing"),
  /** Suspended: the controller leaves it alone. */
  SUSPENDED("suspended"),
  /** No Ready verdict yet, or an object that is not a Kustomization, or one that does not exist. */
  UNKNOWN("unknown"),
  /** Ready and (where reported) Healthy. */
  READY("ready");

  private final String cssClass;

  NodeState(String cssClass) {
    this.cssClass = cssClass;
  }

  String cssClass() {
    return cssClass;
  }

  static NodeState of(Row row) {
    if (row.suspended()) {
      return SUSPENDED;
    }
    if ("False".equals(row.ready()) || row.countsAsUnhealthy()) {
      return FAILING;
    }
    return row.countsAsReady() ? READY : UNKNOWN;
  }

  NodeState worse(NodeState other) {
    return other.ordinal() < ordinal() ? other : this;
  }
}
