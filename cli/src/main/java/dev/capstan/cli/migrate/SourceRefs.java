package dev.capstan.cli.migrate;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The sources objects name in their {@code spec.sourceRef} (a Kustomization's or HelmRelease's may
 * name another namespace; a HelmChart's is in its own), and what that means when {@code -n}
 * migrates one namespace: a source used from outside the scope stays running for the Flux object
 * that uses it, and an object whose source is outside the scope waits until that source has a twin.
 * Pure.
 */
final class SourceRefs {

  /** The kinds a Kustomization or HelmRelease in another namespace may name as its source. */
  private static final Set<FluxKind> CROSS_NAMESPACE_SOURCES =
      EnumSet.of(
          FluxKind.GIT_REPOSITORY,
          FluxKind.OCI_REPOSITORY,
          FluxKind.BUCKET,
          FluxKind.HELM_REPOSITORY,
          FluxKind.HELM_CHART,
          FluxKind.EXTERNAL_ARTIFACT);

  private SourceRefs() {}

  /**
   * The key ({@link Planner#key}) of the source {@code object} names, if it names one: a
   * Kustomization's or HelmChart's {@code spec.sourceRef}, a HelmRelease's {@code
   * spec.chart.spec.sourceRef} or {@code spec.chartRef}.
   */
  static Optional<String> sourceOf(Manifest object) {
    Map<?, ?> ref =
        switch (object.kind()) {
          case KUSTOMIZATION, HELM_CHART -> Manifest.map(object.spec().get("sourceRef"));
          case HELM_RELEASE -> helmReleaseSource(object);
          default -> Map.of();
        };
    Optional<FluxKind> kind = FluxKind.named(String.valueOf(ref.get("kind")));
    if (kind.isEmpty() || !(ref.get("name") instanceof String name)) {
      return Optional.empty();
    }
    boolean crossAllowed = object.kind() != FluxKind.HELM_CHART;
    String namespace =
        crossAllowed && ref.get("namespace") instanceof String ns && !ns.isEmpty()
            ? ns
            : object.namespace();
    return Optional.of(Planner.key(kind.get(), namespace, name));
  }

  private static Map<?, ?> helmReleaseSource(Manifest release) {
    Map<?, ?> template = Manifest.map(Manifest.map(release.spec().get("chart")).get("spec"));
    return template.containsKey("sourceRef")
        ? Manifest.map(template.get("sourceRef"))
        : Manifest.map(release.spec().get("chartRef"));
  }

  /**
   * The sources used by objects outside {@code scope} (none without one), each with who uses it:
   * those objects stay where they are, so their sources must keep running.
   */
  static Map<String, String> usedFromOutside(List<Manifest> objects, Optional<String> scope) {
    Map<String, String> users = new HashMap<>();
    if (scope.isEmpty()) {
      return users;
    }
    for (Manifest object : objects) {
      if (!object.namespace().equals(scope.get())) {
        sourceOf(object)
            .filter(source -> namespaceOf(source).equals(scope.get()))
            .ifPresent(source -> users.putIfAbsent(source, object.title()));
      }
    }
    return users;
  }

  /**
   * Every source in {@code scope} that a Kustomization or HelmRelease elsewhere could name, each as
   * used by whoever is there: when the other namespaces cannot be read, none of these may stop for
   * Flux.
   */
  static Map<String, String> perhapsUsedFromOutside(List<Manifest> objects, String scope) {
    Map<String, String> users = new HashMap<>();
    for (Manifest object : objects) {
      if (object.namespace().equals(scope) && CROSS_NAMESPACE_SOURCES.contains(object.kind())) {
        users.put(
            Planner.key(object.kind(), object.namespace(), object.name()),
            "objects in namespaces this identity may not list");
      }
    }
    return users;
  }

  /**
   * Why {@code object} cannot move within {@code scope}: its source is in another namespace and has
   * no object on the side it moves to ({@code arrived}: the twins on the way to Capstan, the Flux
   * objects on the way back), so it would never be Ready there. Empty when it can.
   */
  static Optional<String> outsideAndMissing(
      Manifest object, Optional<String> scope, Map<String, Manifest> arrived, boolean rollback) {
    if (scope.isEmpty()) {
      return Optional.empty();
    }
    return sourceOf(object)
        .filter(source -> !namespaceOf(source).equals(scope.get()))
        .filter(source -> !arrived.containsKey(source))
        .map(
            source ->
                "its source "
                    + title(source)
                    + " is outside -n "
                    + scope.get()
                    + (rollback
                        ? " and has no Flux object any more: roll back -n "
                        : " and has no Capstan twin yet: migrate -n ")
                    + namespaceOf(source)
                    + " first ("
                    + (rollback ? "its twin" : "its Flux object")
                    + " is kept running for this one), or both namespaces together without -n");
  }

  /** {@code Kind ns/name} of a key. */
  static String title(String key) {
    String[] parts = key.split("/", 3);
    return parts[0] + " " + parts[1] + "/" + parts[2];
  }

  private static String namespaceOf(String key) {
    return key.split("/", 3)[1];
  }
}
