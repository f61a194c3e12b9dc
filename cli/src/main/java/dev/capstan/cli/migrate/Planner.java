package dev.capstan.cli.migrate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The plan of a migration, or of its rollback, from the Flux objects and the Capstan objects read:
 * a pure function, so that a run killed half-way and run again plans the rest from what it finds.
 */
final class Planner {

  private Planner() {}

  /** What {@code --apply} would do with {@code flux}, given the Capstan objects there already. */
  static MigrationPlan migration(List<Manifest> flux, List<Manifest> capstan) {
    Map<String, Manifest> twins = byKey(capstan);
    HelmReleaseUse helmReleases = HelmReleaseUse.of(flux);
    List<PlannedObject> planned = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Manifest object : ordered(flux)) {
      if (!object.kind().migrates()) {
        planned.add(
            notMigrated(object, "HelmRelease is not supported yet", FieldDifferences.of(object)));
        continue;
      }
      String key = key(object.kind(), object.namespace(), object.name());
      seen.add(key);
      String generatedFor = helmReleases.generatedCharts().get(key);
      if (generatedFor != null) {
        planned.add(
            notMigrated(
                object,
                "made by " + generatedFor + ", which is not migrated",
                FieldDifferences.of(object)));
        continue;
      }
      planned.add(
          plan(object, Optional.ofNullable(twins.get(key)), helmReleases.sources().get(key)));
    }
    for (Manifest twin : ordered(capstan)) {
      String key = key(twin.kind(), twin.namespace(), twin.name());
      if (!seen.contains(key) && migrated(twin)) {
        planned.add(
            new PlannedObject(
                twin.kind(),
                twin.namespace(),
                twin.name(),
                Optional.empty(),
                Optional.of(twin),
                Outcome.DONE,
                "",
                List.of(),
                List.of()));
      }
    }
    return new MigrationPlan(planned, false);
  }

  /** What {@code --rollback} would do: every twin this migration made, handed back to Flux. */
  static MigrationPlan rollback(List<Manifest> flux, List<Manifest> capstan) {
    Map<String, Manifest> fluxByKey = byKey(flux);
    List<PlannedObject> planned = new ArrayList<>();
    for (Manifest twin : ordered(capstan)) {
      if (!migrated(twin)) {
        continue;
      }
      Optional<Manifest> original =
          Optional.ofNullable(fluxByKey.get(key(twin.kind(), twin.namespace(), twin.name())));
      List<Step> steps = new ArrayList<>();
      if (twin.kind() != FluxKind.EXTERNAL_ARTIFACT && !twin.suspended()) {
        steps.add(Step.SUSPEND_TWIN);
      }
      if (original.isEmpty()) {
        steps.add(Step.CREATE_FLUX);
      }
      if (twin.kind() == FluxKind.EXTERNAL_ARTIFACT) {
        steps.add(Step.COPY_STATUS);
      }
      if (twin.kind() == FluxKind.KUSTOMIZATION) {
        steps.add(Step.HAND_BACK);
      }
      if (twin.kind() != FluxKind.EXTERNAL_ARTIFACT) {
        steps.add(Step.RESUME_FLUX);
      }
      steps.add(Step.DELETE_TWIN);
      planned.add(
          new PlannedObject(
              twin.kind(),
              twin.namespace(),
              twin.name(),
              original,
              Optional.of(twin),
              Outcome.ROLL_BACK,
              "",
              List.of(),
              steps));
    }
    return new MigrationPlan(planned, true);
  }

  private static PlannedObject plan(Manifest flux, Optional<Manifest> twin, String helmRelease) {
    List<Difference> differences = FieldDifferences.of(flux);
    if (twin.isPresent() && !migrated(twin.get())) {
      return blocked(
          flux,
          twin,
          "a Capstan " + flux.kind().kind + " of this name exists that no migration created",
          differences);
    }
    if (FieldDifferences.refused(differences)) {
      return blocked(flux, twin, "Capstan refuses a field of it (below)", differences);
    }
    if (helmRelease != null) {
      List<Step> steps =
          twin.isPresent() ? List.of(Step.WAIT_READY) : List.of(Step.CREATE_TWIN, Step.WAIT_READY);
      return new PlannedObject(
          flux.kind(),
          flux.namespace(),
          flux.name(),
          Optional.of(flux),
          twin,
          Outcome.SHARED,
          "used by " + helmRelease,
          differences,
          steps);
    }
    return new PlannedObject(
        flux.kind(),
        flux.namespace(),
        flux.name(),
        Optional.of(flux),
        twin,
        twin.isPresent() ? Outcome.CONTINUE : Outcome.MIGRATE,
        "",
        differences,
        steps(flux, twin.isPresent()));
  }

  private static List<Step> steps(Manifest flux, boolean twinExists) {
    List<Step> steps = new ArrayList<>();
    if (flux.kind() != FluxKind.EXTERNAL_ARTIFACT && !flux.suspended()) {
      steps.add(Step.SUSPEND_FLUX);
    }
    if (!twinExists) {
      steps.add(Step.CREATE_TWIN);
    }
    if (flux.kind() == FluxKind.EXTERNAL_ARTIFACT) {
      steps.add(Step.COPY_STATUS);
    } else if (flux.kind() == FluxKind.KUSTOMIZATION) {
      steps.add(Step.HAND_OVER);
      steps.add(Step.RESUME_TWIN);
    }
    if (flux.kind() != FluxKind.EXTERNAL_ARTIFACT && !flux.suspendedByUser()) {
      steps.add(Step.WAIT_READY);
    }
    steps.add(Step.DELETE_FLUX);
    return steps;
  }

  private static PlannedObject blocked(
      Manifest flux, Optional<Manifest> twin, String reason, List<Difference> differences) {
    return new PlannedObject(
        flux.kind(),
        flux.namespace(),
        flux.name(),
        Optional.of(flux),
        twin,
        Outcome.BLOCKED,
        reason,
        differences,
        List.of());
  }

  private static PlannedObject notMigrated(
      Manifest flux, String reason, List<Difference> differences) {
    return new PlannedObject(
        flux.kind(),
        flux.namespace(),
        flux.name(),
        Optional.of(flux),
        Optional.empty(),
        Outcome.NOT_MIGRATED,
        reason,
        differences,
        List.of());
  }

  static boolean migrated(Manifest twin) {
    return twin.annotations().containsKey(Manifest.MIGRATED_FROM);
  }

  /**
   * Kind order, then namespace and name; Kustomizations after those they depend on, so that each
   * twin's dependencies are migrated before it is waited for.
   */
  static List<Manifest> ordered(List<Manifest> objects) {
    List<Manifest> sorted =
        objects.stream()
            .sorted(
                Comparator.comparing((Manifest m) -> m.kind().ordinal())
                    .thenComparing(Manifest::namespace)
                    .thenComparing(Manifest::name))
            .toList();
    return DependencyOrder.of(sorted);
  }

  private static Map<String, Manifest> byKey(List<Manifest> objects) {
    Map<String, Manifest> byKey = new HashMap<>();
    objects.forEach(o -> byKey.put(key(o.kind(), o.namespace(), o.name()), o));
    return byKey;
  }

  static String key(FluxKind kind, String namespace, String name) {
    return kind.kind + "/" + namespace + "/" + name;
  }
}
