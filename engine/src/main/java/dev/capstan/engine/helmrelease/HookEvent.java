package dev.capstan.engine.helmrelease;

/**
 * The events of Helm's {@code helm.sh/hook} annotation that an install, upgrade, rollback or
 * uninstall runs.
 */
enum HookEvent {
  PRE_INSTALL("pre-install"),
  POST_INSTALL("post-install"),
  PRE_UPGRADE("pre-upgrade"),
  POST_UPGRADE("post-upgrade"),
  PRE_ROLLBACK("pre-rollback"),
  POST_ROLLBACK("post-rollback"),
  PRE_DELETE("pre-delete"),
  POST_DELETE("post-delete");

  private final String text;

  HookEvent(String text) {
    this.text = text;
  }

  /** The event as the annotation and the release record spell it. */
  String text() {
    return text;
  }

  /** The event before the objects of an upgrade ({@code upgrade}) or an install. */
  static HookEvent pre(boolean upgrade) {
    return upgrade ? PRE_UPGRADE : PRE_INSTALL;
  }

  /** The event after the objects of an upgrade ({@code upgrade}) or an install. */
  static HookEvent post(boolean upgrade) {
    return upgrade ? POST_UPGRADE : POST_INSTALL;
  }

  @Override
  public String toString() {
    return text;
  }
}
