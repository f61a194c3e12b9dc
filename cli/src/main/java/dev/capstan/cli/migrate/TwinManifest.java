package dev.capstan.cli.migrate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A Flux object's Capstan twin, and back for a rollback: the same name, labels, annotations and
 * spec under the other group, with the references to the other group's kinds rewritten ({@code
 * sourceRef}, a HelmRelease's {@code chart.spec.sourceRef} and {@code chartRef}, health checks and
 * {@code dependsOn} entries that give an apiVersion). Secrets and ConfigMaps ({@code valuesFrom})
 * are named, never copied, so both read the same ones in place. Pure.
 */
final class TwinManifest {

  /** Annotations of one controller's or one tool's own, never carried over. */
  private static final Set<String> DROPPED_ANNOTATIONS =
      Set.of(
          "kubectl.kubernetes.io/last-applied-configuration",
          "reconcile.fluxcd.io/requestedAt",
          "reconcile.capstan.dev/requestedAt",
          Manifest.SUSPENDED_BY_MIGRATION,
          Manifest.MIGRATED_FROM);

  private TwinManifest() {}

  /**
   * The twin of a Flux object. A Kustomization's twin starts suspended, so that no engine applies
   * before its inventory and its objects' fields are handed over; a source's is suspended only if
   * its user had suspended the Flux object.
   */
  static GenericKubernetesResource capstanTwin(Manifest flux) {
    boolean suspend = flux.kind() == FluxKind.KUSTOMIZATION || flux.suspendedByUser();
    GenericKubernetesResource twin =
        copy(flux, flux.kind().capstanApiVersion(), FluxKind::toCapstan, suspend);
    twin.getMetadata().getAnnotations().put(Manifest.MIGRATED_FROM, flux.kind().fluxApiVersion());
    return twin;
  }

  /**
   * The Flux object a rollback makes of a twin: a Kustomization suspended until its objects' fields
   * are handed back, a source suspended only if its user had suspended the twin.
   */
  static GenericKubernetesResource fluxObject(Manifest twin) {
    boolean suspend = twin.kind() == FluxKind.KUSTOMIZATION || twin.suspendedByUser();
    return copy(twin, twin.kind().fluxApiVersion(), FluxKind::toFlux, suspend);
  }

  private static GenericKubernetesResource copy(
      Manifest from, String apiVersion, UnaryOperator<String> references, boolean suspend) {
    GenericKubernetesResource to = new GenericKubernetesResource();
    to.setApiVersion(apiVersion);
    to.setKind(from.kind().kind);
    Map<String, String> annotations = new LinkedHashMap<>(from.annotations());
    annotations.keySet().removeAll(DROPPED_ANNOTATIONS);
    if (suspend && !from.suspendedByUser()) {
      // suspended by the migration, not its user: a later run (or a rollback after a run that
      // stopped halfway) resumes it
      annotations.put(Manifest.SUSPENDED_BY_MIGRATION, "true");
    }
    Map<String, String> labels = from.object().getMetadata().getLabels();
    to.setMetadata(
        new ObjectMetaBuilder()
            .withName(from.name())
            .withNamespace(from.namespace())
            .withLabels(labels == null ? new LinkedHashMap<>() : new LinkedHashMap<>(labels))
            .withAnnotations(annotations)
            .build());
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) deepCopy(from.spec());
    rewrite(spec.get("sourceRef"), references);
    rewrite(Manifest.map(Manifest.map(spec.get("chart")).get("spec")).get("sourceRef"), references);
    rewrite(spec.get("chartRef"), references);
    for (String list : List.of("healthChecks", "dependsOn")) {
      if (spec.get(list) instanceof List<?> entries) {
        entries.forEach(entry -> rewrite(entry, references));
      }
    }
    if (suspend) {
      spec.put("suspend", true);
    } else {
      spec.remove("suspend");
    }
    to.setAdditionalProperty("spec", spec);
    return to;
  }

  /** Rewrites the apiVersion of a reference ({@code sourceRef}, a health check) in place. */
  @SuppressWarnings("unchecked")
  private static void rewrite(Object reference, UnaryOperator<String> references) {
    if (reference instanceof Map<?, ?> map && map.get("apiVersion") instanceof String version) {
      ((Map<String, Object>) map).put("apiVersion", references.apply(version));
    }
  }

  /** A copy of a tree of maps and lists, so that the twin shares nothing with what was read. */
  static Object deepCopy(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(String.valueOf(k), deepCopy(v)));
      return copy;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      list.forEach(item -> copy.add(deepCopy(item)));
      return copy;
    }
    return value;
  }
}
