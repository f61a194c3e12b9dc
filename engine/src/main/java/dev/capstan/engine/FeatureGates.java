package dev.capstan.engine;

import java.util.EnumMap;
import java.util.Map;

/**
 * The engine's feature gates, set with {@code --feature-gates} in Flux's syntax: {@code
 * Name=bool,Name=bool}, several flags adding up, later values winning. A gate Capstan does not know
 * is refused, as Flux refuses one it does not support.
 */
public final class FeatureGates {

  /** The gates, with their defaults. */
  public enum Gate {
    /**
     * A postBuild variable with neither a value nor a default fails the build (Flux's default since
     * kustomize-controller v1.9). Off: it becomes the empty string.
     */
    StrictPostBuildSubstitutions(true),
    /**
     * New input (a new revision, a spec change, a reconcile request, a changed ConfigMap or Secret)
     * ends a health wait in progress and is reconciled at once. On by default here; off by default
     * in Flux. Off: the wait goes on until it ends, then the new input is reconciled.
     */
    CancelHealthCheckOnNewRevision(true),
    /** Changes of the ConfigMaps and Secrets a Kustomization names do not reconcile it. */
    DisableConfigWatchers(false);

    private final boolean byDefault;

    Gate(boolean byDefault) {
      this.byDefault = byDefault;
    }

    public boolean byDefault() {
      return byDefault;
    }
  }

  private static final FeatureGates DEFAULTS = new FeatureGates(new EnumMap<>(Gate.class));

  private final Map<Gate, Boolean> set;

  private FeatureGates(Map<Gate, Boolean> set) {
    this.set = set;
  }

  /** Every gate at its default. */
  public static FeatureGates defaults() {
    return DEFAULTS;
  }

  /**
   * The gates after these {@code --feature-gates} values, in order.
   *
   * @throws IllegalArgumentException naming the pair that is malformed, the value that is not a
   *     boolean, or the gate that is not supported (with the supported ones)
   */
  public static FeatureGates parse(Iterable<String> flags) {
    Map<Gate, Boolean> set = new EnumMap<>(Gate.class);
    for (String flag : flags) {
      for (String pair : flag.split(",", -1)) {
        if (pair.isBlank()) {
          continue;
        }
        int equals = pair.indexOf('=');
        if (equals < 0) {
          throw new IllegalArgumentException(
              "--feature-gates: malformed pair '" + pair.strip() + "', expected Name=true|false");
        }
        Gate gate = gate(pair.substring(0, equals).strip());
        set.put(gate, bool(gate, pair.substring(equals + 1).strip()));
      }
    }
    return new FeatureGates(set);
  }

  public boolean enabled(Gate gate) {
    return set.getOrDefault(gate, gate.byDefault());
  }

  /** This one with {@code gate} set (for tests and embedders). */
  public FeatureGates with(Gate gate, boolean value) {
    Map<Gate, Boolean> next = new EnumMap<>(Gate.class);
    next.putAll(set);
    next.put(gate, value);
    return new FeatureGates(next);
  }

  private static Gate gate(String name) {
    for (Gate gate : Gate.values()) {
      if (gate.name().equals(name)) {
        return gate;
      }
    }
    StringBuilder supported = new StringBuilder();
    for (Gate gate : Gate.values()) {
      supported.append(supported.length() == 0 ? "" : ", ").append(gate.name());
    }
    throw new IllegalArgumentException(
        "--feature-gates: feature-gate '"
            + name
            + "' not supported (supported: "
            + supported
            + ")");
  }

  /**
   * Go's strconv.ParseBool, which Flux's flag uses: 1, t, T, TRUE, true, True and the false ones.
   */
  private static boolean bool(Gate gate, String value) {
    switch (value) {
      case "1", "t", "T", "TRUE", "true", "True":
        return true;
      case "0", "f", "F", "FALSE", "false", "False":
        return false;
      default:
        throw new IllegalArgumentException(
            "--feature-gates: invalid value '"
                + value
                + "' of "
                + gate.name()
                + ", expected true or false");
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FeatureGates f && f.set.equals(set);
  }

  @Override
  public int hashCode() {
    return set.hashCode();
  }

  @Override
  public String toString() {
    return "FeatureGates" + set;
  }
}
