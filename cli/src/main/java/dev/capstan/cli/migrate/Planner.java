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
    return migration(flux, capstan, Optional.empty());
  }

  /**
   * What {@code --apply -n scope} would do: only the objects of {@code scope} are planned, the
   * others read (every namespace's, when they could be read) only for the references that cross
   * namespaces.
   */
  static MigrationPlan migration(
      List<Manifest> flux, List<Manifest> capstan, Optional<String> scope) {
    return migration(flux, capstan, scope, true);
  }

  /**
   * As {@link #migration(List, List, Optional)}; {@code everyNamespace} false when only the scope's
   * own objects could be read: then every source there stays running for Flux too.
   */
  static MigrationPlan migration(
      List<Manifest> flux, List<Manifest> capstan, Optional<String> scope, boolean everyNamespace) {
    Map<String, Manifest> twins = byKey(capstan);
    HelmReleaseUse helmReleases = HelmReleaseUse.of(flux);
    Map<String, String> usedFromOutside = usedFromOutside(flux, scope, everyNamespace);
    List<PlannedObject> planned = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Manifest object : ordered(inScope(flux, scope))) {
      String key = key(object.kind(), object.namespace(), object.name());
      seen.add(key);
      Manifest generatedFor = helmReleases.generatedCharts().get(key);
      if (generatedFor != null) {
        planned.add(
            notMigrated(
                object,
                "made by helm-controller for "
                    + generatedFor.title()
                    + ": Capstan's HelmRelease makes its own HelmChart, and this one is deleted"
                    + " when that HelmRelease migrates",
                FieldDifferences.of(object)));
        continue;
      }
      Optional<String> sourceOutside = SourceRefs.outsideAndMissing(object, scope, twins, false);
      if (sourceOutside.isPresent()) {
        planned.add(
            blocked(
                object,
                Optional.ofNullable(twins.get(key)),
                sourceOutside.get(),
                FieldDifferences.of(object)));
        continue;
      }
      String outsideUser = usedFromOutside.get(key);
      String sharedWith =
          outsideUser == null
              ? null
              : outsideUser + ", which -n " + scope.orElseThrow() + " leaves with Flux";
      planned.add(plan(object, Optional.ofNullable(twins.get(key)), sharedWith));
    }
    for (Manifest twin : ordered(inScope(capstan, scope))) {
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

  private static Map<String, String> usedFromOutside(
      List<Manifest> objects, Optional<String> scope, boolean everyNamespace) {
    return everyNamespace || scope.isEmpty()
        ? SourceRefs.usedFromOutside(objects, scope)
        : SourceRefs.perhapsUsedFromOutside(objects, scope.get());
  }

  /** What {@code --rollback} would do: every twin this migration made, handed back to Flux. */
  static MigrationPlan rollback(List<Manifest> flux, List<Manifest> capstan) {
    return rollback(flux, capstan, Optional.empty());
  }

  /**
   * What {@code --rollback -n scope} would do: the twins of {@code scope} handed back; a source
   * twin that a Capstan object outside the scope uses is kept running beside its Flux object.
   */
  static MigrationPlan rollback(
      List<Manifest> flux, List<Manifest> capstan, Optional<String> scope) {
    return rollback(flux, capstan, scope, true);
  }

  /** As {@link #rollback(List, List, Optional)}, with {@code everyNamespace} as for a migration. */
  static MigrationPlan rollback(
      List<Manifest> flux, List<Manifest> capstan, Optional<String> scope, boolean everyNamespace) {
    Map<String, Manifest> fluxByKey = byKey(flux);
    Map<String, String> usedFromOutside = usedFromOutside(capstan, scope, everyNamespace);
    List<PlannedObject> planned = new ArrayList<>();
    for (Manifest twin : ordered(inScope(capstan, scope))) {
      if (!migrated(twin)) {
        continue;
      }
      String key = key(twin.kind(), twin.namespace(), twin.name());
      Optional<Manifest> original = Optional.ofNullable(fluxByKey.get(key));
      if (usedFromOutside.containsKey(key)) {
        planned.add(keptRunning(twin, original, usedFromOutside.get(key), scope.orElseThrow()));
        continue;
      }
      Optional<String> sourceOutside = SourceRefs.outsideAndMissing(twin, scope, fluxByKey, true);
      if (sourceOutside.isPresent()) {
        planned.add(
            new PlannedObject(
                twin.kind(),
                twin.namespace(),
                twin.name(),
                original,
                Optional.of(twin),
                Outcome.BLOCKED,
                sourceOutside.get(),
                List.of(),
                List.of()));
        continue;
      }
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
      if (twin.kind() == FluxKind.HELM_RELEASE && twin.spec().containsKey("chart")) {
        steps.add(Step.DELETE_TWIN_CHART);
      }
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

  /**
   * A source twin handed back beside its Flux object, kept for a Capstan user outside the scope.
   */
  private static PlannedObject keptRunning(
      Manifest twin, Optional<Manifest> original, String user, String scope) {
    List<Step> steps = new ArrayList<>();
    if (original.isEmpty()) {
      steps.add(Step.CREATE_FLUX);
    }
    if (twin.kind() != FluxKind.EXTERNAL_ARTIFACT) {
      steps.add(Step.RESUME_FLUX);
    }
    // An earlier rollback of everything, killed half-way, may have suspended it: its user needs it.
    if (twin.suspended() && !twin.suspendedByUser()) {
      steps.add(Step.RESUME_TWIN);
    }
    return new PlannedObject(
        twin.kind(),
        twin.namespace(),
        twin.name(),
        original,
        Optional.of(twin),
        Outcome.ROLL_BACK_SHARED,
        "used by " + user + ", which -n " + scope + " leaves with Capstan",
        List.of(),
        steps);
  }

  private static PlannedObject plan(Manifest flux, Optional<Manifest> twin, String sharedWith) {
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
    if (sharedWith != null) {
      List<Step> steps = new ArrayList<>();
      if (flux.suspended() && !flux.suspendedByUser()) {
        // an earlier run without this user in view suspended it: the user needs it running
        steps.add(Step.RESUME_FLUX);
      }
      if (twin.isEmpty()) {
        steps.add(Step.CREATE_TWIN);
      }
      steps.add(Step.WAIT_READY);
      return new PlannedObject(
          flux.kind(),
          flux.namespace(),
          flux.name(),
          Optional.of(flux),
          twin,
          Outcome.SHARED,
          "used by " + sharedWith,
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
    if (flux.kind() == FluxKind.HELM_RELEASE && HelmReleaseUse.chartOf(flux).isPresent()) {
      steps.add(Step.DELETE_FLUX_CHART);
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

  private static List<Manifest> inScope(List<Manifest> objects, Optional<String> scope) {
    return objects.stream()
        .filter(o -> scope.isEmpty() || scope.get().equals(o.namespace()))
        .toList();
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
