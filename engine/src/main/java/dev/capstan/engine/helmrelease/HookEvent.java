package dev.capstan.engine.helmrelease;

import java.util.List;

/**
 * The events of Helm's {@code helm.sh/hook} annotation that an install or upgrade runs, and the
 * test event that {@code spec.test} runs after one.
 */
enum HookEvent {
  PRE_INSTALL("pre-install"),
  POST_INSTALL("post-install"),
  PRE_UPGRADE("pre-upgrade"),
  POST_UPGRADE("post-upgrade"),
  TEST("test");

  /** Helm 2's name of the test event, which Helm still runs as a test. */
  private static final String LEGACY_TEST = "test-success";

  private final String text;

  HookEvent(String text) {
    this.text = text;
  }

  /** The event as the annotation and the release record spell it. */
  String text() {
    return text;
  }

  /** Whether a hook of {@code events} runs in this event. */
  boolean in(List<String> events) {
    return events.contains(text) || (this == TEST && events.contains(LEGACY_TEST));
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
