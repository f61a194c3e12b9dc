package dev.capstan.cli.migrate;

import dev.capstan.applier.common.CapstanMetadata;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.engine.helmrelease.HelmChartTemplates;
import dev.capstan.engine.status.StatusWriter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Takes the steps of a plan, object by object in the plan's order. Every step looks at what is
 * there first and does nothing when it is done already, so that a run killed half-way and run again
 * ends as one run would have.
 */
final class MigrationExecutor {

  /** The field manager of kustomize-controller's applies. */
  static final String FLUX_MANAGER = "kustomize-controller";

  /** The field manager of the statuses this command writes (not the engine's). */
  static final String MIGRATE_MANAGER = "capstan-migrate";

  /** How long a deleted twin is watched for being made again by an apply already under way. */
  private static final Duration TWIN_SETTLE = Duration.ofSeconds(1);

  private final KubernetesClient client;
  private final KindResources resources;
  private final OwnershipTransfer ownership;
  private final ReadyWait ready;
  private final PrintWriter out;

  MigrationExecutor(KubernetesClient client, ReadyWait ready, PrintWriter out) {
    this.client = client;
    this.resources = new KindResources(client);
    this.ownership = new OwnershipTransfer(client);
    this.ready = ready;
    this.out = out;
  }

  /** Takes every step; throws {@link CliException} naming the object and step that failed. */
  void run(MigrationPlan plan, Duration timeout) {
    for (PlannedObject object : plan.objects()) {
      for (Step step : object.steps()) {
        out.println(object.title() + ": " + step.says);
        out.flush();
        try {
          take(step, object, timeout);
        } catch (KubernetesClientException e) {
          throw new CliException(
              object.title() + ": " + step.says + " failed: " + e.getMessage(),
              CliException.FAILED);
        }
      }
    }
  }

  private void take(Step step, PlannedObject object, Duration timeout) {
    FluxKind kind = object.kind();
    Resource<GenericKubernetesResource> flux =
        resources.flux(kind, object.namespace(), object.name());
    Resource<GenericKubernetesResource> twin =
        resources.capstan(kind, object.namespace(), object.name());
    switch (step) {
      case SUSPEND_FLUX -> suspend(flux);
      case CREATE_TWIN -> create(twin, TwinManifest.capstanTwin(object.flux().orElseThrow()));
      case COPY_STATUS -> copyStatus(object, flux, twin);
      case HAND_OVER -> handOver(flux, twin);
      case RESUME_TWIN -> {
        if (!object.flux().orElseThrow().suspendedByUser()) {
          resume(twin);
        }
      }
      case WAIT_READY -> ready.await(kind, true, object.namespace(), object.name(), timeout);
      case DELETE_FLUX_CHART -> deleteFluxChart(flux);
      case DELETE_TWIN_CHART -> deleteCapstanChart(object.twin().orElseThrow());
      case DELETE_FLUX -> {
        if (kind == FluxKind.KUSTOMIZATION) {
          transferAgain(flux, FLUX_MANAGER, CapstanMetadata.FIELD_MANAGER);
        }
        deleteWithoutFinalizers(flux);
      }
      case SUSPEND_TWIN -> suspend(twin);
      case CREATE_FLUX -> create(flux, TwinManifest.fluxObject(object.twin().orElseThrow()));
      case HAND_BACK -> handBack(twin, flux);
      case RESUME_FLUX -> {
        // a twin its user suspended keeps the Flux object suspended; without a twin (a shared
        // source that an earlier run suspended) the migration's suspension is undone
        boolean userSuspended = object.twin().map(Manifest::suspendedByUser).orElse(false);
        if (kind != FluxKind.EXTERNAL_ARTIFACT && !userSuspended) {
          resume(flux);
        }
      }
      case DELETE_TWIN -> {
        if (kind == FluxKind.KUSTOMIZATION) {
          transferAgain(twin, CapstanMetadata.FIELD_MANAGER, FLUX_MANAGER);
        }
        if (kind == FluxKind.HELM_RELEASE) {
          deleteTwin(twin);
        } else {
          deleteWithoutFinalizers(twin);
        }
      }
    }
  }

  /**
   * The HelmChart helm-controller made for a HelmRelease ({@code status.helmChart}, read again: an
   * earlier run may have deleted it), once the twin no longer needs the Flux side: Capstan's twin
   * makes its own. Flux's HelmRelease is suspended, so helm-controller does not make it again.
   */
  private void deleteFluxChart(Resource<GenericKubernetesResource> release) {
    GenericKubernetesResource live = release.get();
    if (live == null) {
      return;
    }
    HelmReleaseUse.chartOf(new Manifest(FluxKind.HELM_RELEASE, live))
        .map(key -> key.split("/", 3))
        .ifPresent(
            key -> deleteWithoutFinalizers(resources.flux(FluxKind.HELM_CHART, key[1], key[2])));
  }

  /**
   * The HelmChart Capstan's HelmRelease made ({@code <namespace>-<name>} in its source's
   * namespace), when its labels name that HelmRelease: the Flux object re-created makes its own.
   */
  private void deleteCapstanChart(Manifest twin) {
    Map<?, ?> sourceRef =
        Manifest.map(
            Manifest.map(Manifest.map(twin.spec().get("chart")).get("spec")).get("sourceRef"));
    String namespace =
        sourceRef.get("namespace") instanceof String ns && !ns.isEmpty() ? ns : twin.namespace();
    Resource<GenericKubernetesResource> chart =
        resources.capstan(FluxKind.HELM_CHART, namespace, twin.namespace() + "-" + twin.name());
    GenericKubernetesResource live = chart.get();
    Map<String, String> labels = live == null ? null : live.getMetadata().getLabels();
    if (labels != null
        && twin.name().equals(labels.get(HelmChartTemplates.NAME_LABEL))
        && twin.namespace().equals(labels.get(HelmChartTemplates.NAMESPACE_LABEL))) {
      deleteWithoutFinalizers(chart);
    }
  }

  /** Suspends, marking the object as suspended by this command rather than by its user. */
  private void suspend(Resource<GenericKubernetesResource> object) {
    mergePatch(
        object,
        Map.of(
            "metadata", Map.of("annotations", Map.of(Manifest.SUSPENDED_BY_MIGRATION, "true")),
            "spec", Map.of("suspend", true)));
  }

  private void resume(Resource<GenericKubernetesResource> object) {
    Map<String, Object> annotations = new HashMap<>();
    annotations.put(Manifest.SUSPENDED_BY_MIGRATION, null);
    Map<String, Object> spec = new HashMap<>();
    spec.put("suspend", false);
    mergePatch(object, Map.of("metadata", Map.of("annotations", annotations), "spec", spec));
  }

  private void create(Resource<GenericKubernetesResource> at, GenericKubernetesResource object) {
    if (at.get() != null) {
      return;
    }
    try {
      at.create(object);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }

  /** An ExternalArtifact's status is its producer's: copied across as it is. */
  private void copyStatus(
      PlannedObject object,
      Resource<GenericKubernetesResource> flux,
      Resource<GenericKubernetesResource> twin) {
    boolean back = object.outcome() == Outcome.ROLL_BACK;
    Manifest from = back ? object.twin().orElseThrow() : object.flux().orElseThrow();
    if (!from.status().isEmpty()) {
      applyStatus(back ? flux : twin, from.status(), MIGRATE_MANAGER);
    }
  }

  /**
   * The twin gets the Flux Kustomization's inventory as it is now, after the suspension (written as
   * the engine writes statuses, so that the engine's own next status replaces it), so that its
   * first prune removes what Flux's would have; then the objects' fields go from
   * kustomize-controller to Capstan.
   */
  private void handOver(
      Resource<GenericKubernetesResource> flux, Resource<GenericKubernetesResource> twin) {
    Manifest from = new Manifest(FluxKind.KUSTOMIZATION, flux.require());
    Manifest to = new Manifest(FluxKind.KUSTOMIZATION, twin.require());
    if (to.inventory().isEmpty() && !from.inventory().isEmpty()) {
      applyStatus(
          twin,
          Map.of("inventory", Map.of("entries", from.inventory())),
          StatusWriter.FIELD_MANAGER);
    }
    int changed = ownership.transfer(from.inventory(), FLUX_MANAGER, CapstanMetadata.FIELD_MANAGER);
    out.println("  " + changed + " of " + from.inventory().size() + " objects handed over");
  }

  private void handBack(
      Resource<GenericKubernetesResource> twin, Resource<GenericKubernetesResource> flux) {
    Manifest from = new Manifest(FluxKind.KUSTOMIZATION, twin.require());
    Manifest to = new Manifest(FluxKind.KUSTOMIZATION, flux.require());
    if (to.inventory().isEmpty() && !from.inventory().isEmpty()) {
      applyStatus(flux, Map.of("inventory", Map.of("entries", from.inventory())), MIGRATE_MANAGER);
    }
    int changed = ownership.transfer(from.inventory(), CapstanMetadata.FIELD_MANAGER, FLUX_MANAGER);
    out.println("  " + changed + " of " + from.inventory().size() + " objects handed back");
  }

  /**
   * Once more before the old owner's object goes: an apply it had started before it was suspended
   * may have landed after the hand-over and shares fields again.
   */
  private void transferAgain(Resource<GenericKubernetesResource> old, String from, String to) {
    GenericKubernetesResource live = old.get();
    if (live != null) {
      ownership.transfer(new Manifest(FluxKind.KUSTOMIZATION, live).inventory(), from, to);
    }
  }

  /**
   * A HelmRelease twin is marked for deletion before its finalizers go, the other way round from a
   * Flux object: the engine lets a suspended object go without pruning or uninstalling, and while
   * it is being deleted no apply of the engine's (such as its finalizer's, a server-side apply) can
   * create it again. It is looked at once more after a moment, and deleted again if an apply that
   * was already on its way made it anew.
   */
  private void deleteTwin(Resource<GenericKubernetesResource> twin) {
    for (int attempt = 0; attempt < 3; attempt++) {
      twin.delete();
      deleteWithoutFinalizers(twin);
      try {
        Thread.sleep(TWIN_SETTLE.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (twin.get() == null) {
        return;
      }
    }
    throw new KubernetesClientException("it was made again after 3 deletions");
  }

  /**
   * Removes the finalizers first, so that no controller acts on the deletion (the object is
   * suspended, so none would apply anything meanwhile), and again while it is still there.
   */
  private void deleteWithoutFinalizers(Resource<GenericKubernetesResource> object) {
    for (int attempt = 0; attempt < 10; attempt++) {
      GenericKubernetesResource live = object.get();
      if (live == null) {
        return;
      }
      List<String> finalizers = live.getMetadata().getFinalizers();
      try {
        if (finalizers != null && !finalizers.isEmpty()) {
          Map<String, Object> metadata = new HashMap<>();
          metadata.put("finalizers", null);
          mergePatch(object, Map.of("metadata", metadata));
        }
        object.delete();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
        return; // its controller let it go meanwhile
      }
    }
    if (object.get() != null) {
      throw new KubernetesClientException("it is still there after 10 deletions");
    }
  }

  private void mergePatch(Resource<GenericKubernetesResource> object, Map<String, ?> patch) {
    object.patch(
        PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(patch));
  }

  private void applyStatus(
      Resource<GenericKubernetesResource> object, Map<?, ?> status, String manager) {
    GenericKubernetesResource live = object.require();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("apiVersion", live.getApiVersion());
    body.put("kind", live.getKind());
    body.put(
        "metadata",
        Map.of(
            "name", live.getMetadata().getName(), "namespace", live.getMetadata().getNamespace()));
    body.put("status", status);
    object
        .subresource("status")
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.SERVER_SIDE_APPLY)
                .withFieldManager(manager)
                .withForce(true)
                .build(),
            client.getKubernetesSerialization().asJson(body));
  }
}
