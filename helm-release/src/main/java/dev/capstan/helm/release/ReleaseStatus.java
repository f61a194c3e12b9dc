package dev.capstan.helm.release;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** A release record's status, under Helm's names (its {@code status} label and JSON field). */
public enum ReleaseStatus {
  UNKNOWN("unknown"),
  DEPLOYED("deployed"),
  UNINSTALLED("uninstalled"),
  SUPERSEDED("superseded"),
  FAILED("failed"),
  UNINSTALLING("uninstalling"),
  PENDING_INSTALL("pending-install"),
  PENDING_UPGRADE("pending-upgrade"),
  PENDING_ROLLBACK("pending-rollback");

  private final String helmName;

  ReleaseStatus(String helmName) {
    this.helmName = helmName;
  }

  /** The name Helm writes, e.g. {@code pending-upgrade}. */
  @JsonValue
  public String helmName() {
    return helmName;
  }

  /**
   * The status Helm names {@code name}.
   *
   * @throws IllegalArgumentException naming it when Helm has no such status
   */
  @JsonCreator
  public static ReleaseStatus of(String name) {
    return Arrays.stream(values())
        .filter(s -> s.helmName.equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown release status '" + name + "'"));
  }
}
