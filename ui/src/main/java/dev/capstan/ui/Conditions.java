package dev.capstan.ui;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Optional;

/** Reads the conditions of a Kustomization's, HelmRelease's or source's status (maybe absent). */
final class Conditions {
  private final List<Condition> all;

  Conditions(List<Condition> all) {
    this.all = all == null ? List.of() : all;
  }

  Optional<Condition> get(String type) {
    return all.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** True, False or Unknown; Unknown when the condition is absent. */
  String status(String type) {
    return get(type).map(Condition::getStatus).orElse("Unknown");
  }

  String reason(String type) {
    return get(type).map(Condition::getReason).orElse("");
  }

  String message(String type) {
    return get(type).map(Condition::getMessage).orElse("");
  }

  /** The latest lastTransitionTime of any condition (RFC 3339 strings sort by time), or empty. */
  String lastChange() {
    return all.stream()
        .map(Condition::getLastTransitionTime)
        .filter(t -> t != null && !t.isEmpty())
        .max(String::compareTo)
        .orElse("");
  }

  List<Condition> all() {
    return all;
  }

  /** Every condition as a page's conditions table shows it. */
  List<Details.ConditionLine> lines() {
    return all.stream()
        .map(
            c ->
                new Details.ConditionLine(
                    c.getType(),
                    c.getStatus(),
                    c.getReason(),
                    c.getMessage(),
                    c.getLastTransitionTime()))
        .toList();
  }
}
