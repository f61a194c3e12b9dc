package dev.capstan.engine.webhook;

import java.util.List;
import java.util.Locale;

/** The kinds of webhook a receiver accepts, each with its own way of proving the sender. */
public enum ReceiverType {
  /**
   * GitHub: {@code X-Hub-Signature-256} is an HMAC-SHA256 of the body; {@code X-GitHub-Event} names
   * the event.
   */
  GITHUB(List.of("push")),
  /**
   * GitLab: {@code X-Gitlab-Token} is the shared secret itself; {@code X-Gitlab-Event} names the
   * event.
   */
  GITLAB(List.of("Push Hook", "Tag Push Hook")),
  /** Any sender: {@code X-Signature: sha256=<hex>} (or sha512) is an HMAC of the body. */
  GENERIC(List.of());

  private final List<String> defaultEvents;

  ReceiverType(List<String> defaultEvents) {
    this.defaultEvents = defaultEvents;
  }

  /** The events that trigger a fetch when the configuration names none. */
  List<String> defaultEvents() {
    return defaultEvents;
  }

  /** The name used in the configuration and in metrics. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
