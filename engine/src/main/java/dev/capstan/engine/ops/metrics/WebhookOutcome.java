package dev.capstan.engine.ops.metrics;

import java.util.Locale;

/** What the webhook receiver did with one request, as the {@code outcome} metric tag. */
public enum WebhookOutcome {
  /** Verified, and a reconcile was requested. */
  ACCEPTED,
  /** Verified, but of an event kind that does not trigger a fetch (e.g. a ping). */
  IGNORED,
  /** Unsigned, wrongly signed, unknown receiver or malformed: never acted on. */
  REJECTED,
  /** Verified, but requesting the reconcile failed. */
  FAILED;

  String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
