package dev.capstan.cli.migrate;

import java.util.List;
import java.util.Optional;

/**
 * One object of the plan: the Flux object and its twin as read (either may be absent), what becomes
 * of it and why, the differences found on it, and the steps to take.
 *
 * @param reason why it is not migrated or is blocked; empty otherwise
 */
record PlannedObject(
    FluxKind kind,
    String namespace,
    String name,
    Optional<Manifest> flux,
    Optional<Manifest> twin,
    Outcome outcome,
    String reason,
    List<Difference> differences,
    List<Step> steps) {

  PlannedObject {
    differences = List.copyOf(differences);
    steps = List.copyOf(steps);
  }

  String title() {
    return kind.kind + " " + namespace + "/" + name;
  }
}
