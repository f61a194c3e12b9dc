package dev.capstan.ui;

import java.util.Locale;
import java.util.Optional;

/** What a button on a Kustomization's page asks for. */
enum PageAction {
  /**
   * Fetch the source now, then reconcile the Kustomization (capstan reconcile ks --with-source).
   */
  RECONCILE,
  SUSPEND,
  RESUME;

  static Optional<PageAction> parse(String text) {
    for (PageAction action : values()) {
      if (action.name().toLowerCase(Locale.ROOT).equals(text)) {
        return Optional.of(action);
      }
    }
    return Optional.empty();
  }

  /** The outcome shown on the page: done, or the API server's reason for refusing. */
  record Result(boolean ok, String message) {}
}
