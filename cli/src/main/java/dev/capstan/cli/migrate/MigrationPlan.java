package dev.capstan.cli.migrate;

import java.util.List;

/** Every object read, in the order it is migrated (or handed back), with what becomes of it. */
record MigrationPlan(List<PlannedObject> objects, boolean rollback) {

  MigrationPlan {
    objects = List.copyOf(objects);
  }

  /** The objects that keep {@code --apply} from starting. */
  List<PlannedObject> blocked() {
    return objects.stream().filter(o -> o.outcome() == Outcome.BLOCKED).toList();
  }

  /** Whether applying would change nothing. */
  boolean nothingToDo() {
    return objects.stream().allMatch(o -> o.steps().isEmpty());
  }
}
