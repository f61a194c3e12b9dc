package dev.capstan.api.helm;

/** Whether an upgrade or rollback applies server-side; the constants are the API's values. */
public enum ServerSideApplyMode {
  enabled,
  disabled,
  auto
}
