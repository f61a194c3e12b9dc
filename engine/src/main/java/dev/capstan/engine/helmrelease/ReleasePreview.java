package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.source.HelmChartFetch;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseHistoryReader;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.kube.ObjectRef;
import dev.capstan.kube.SecretReader;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the engine's next install or upgrade of a HelmRelease would write, without writing: its
 * values composed and its chart rendered by the pipeline's own stages ({@link ReleaseInputs},
 * {@link ReleaseRender}, {@link ManifestObjects}), its records read by {@link ReleaseRecording}'s
 * lookup, and what the engine's prune would then look at ({@link ReleaseApply#pruneFrom}). Hooks,
 * tests and the chart's {@code crds/} are left out: they are not applied as the release's objects
 * are.
 */
public final class ReleasePreview {

  /** Values nest no deeper than this in practice; the bound keeps a hostile record cheap. */
  private static final int MAX_DEPTH = 64;

  /** At most this many old values are masked; a record with more is not walked further. */
  private static final int MAX_VALUES = 10_000;

  /**
   * A release previewed.
   *
   * @param chart the chart's source, {@code HelmChart 'ns/name'}
   * @param revision the chart's version that was rendered
   * @param upgrade whether a deployed release would be upgraded (else installed)
   * @param owner who the objects are applied as, so that labels compare equal
   * @param objects the rendered objects, as the engine applies them
   * @param stale what the engine's prune would look at: the objects it deletes unless they are gone
   *     or kept
   * @param fromSecrets what of the values came from Secrets, to be masked wherever it shows
   * @param uninstallFirst when the release target changed ({@link ReleaseTarget}): why, and the
   *     release recorded, which the engine uninstalls before it installs
   */
  public record Preview(
      String chart,
      String revision,
      boolean upgrade,
      Owner owner,
      List<GenericKubernetesResource> objects,
      List<ObjectRef> stale,
      Plaintexts fromSecrets,
      Optional<String> uninstallFirst) {
    public Preview {
      objects = List.copyOf(objects);
      stale = List.copyOf(stale);
    }
  }

  /** A HelmRelease that cannot be previewed: the message names what and where, no value. */
  public static final class Unavailable extends RuntimeException {
    Unavailable(String message) {
      super(message, null, false, false);
    }
  }

  private final ReleaseInputs inputs;
  private final ReleaseRender render;
  private final ReleaseHistories records;

  ReleasePreview(ReleaseInputs inputs, ReleaseRender render, ReleaseHistories records) {
    this.inputs = inputs;
    this.render = render;
    this.records = records;
  }

  /**
   * Previews with {@code client}'s rights, from outside the engine: charts fetched from their
   * sources into a store at {@code store} (not the engine's), rendered by {@code renderer} with
   * {@code client}'s cluster's Capabilities, the release records read (never written) with {@code
   * client}.
   */
  public static ReleasePreview outsideEngine(
      KubernetesClient client, ChartRendering renderer, Path store, Clock clock) {
    ChartSources charts = new FetchedChartSources(client, new HelmChartFetch(client, store, clock));
    return new ReleasePreview(
        new ReleaseInputs(charts, ValuesComposition.of(client), false),
        new ReleaseRender(
            renderer,
            new ReleaseCapabilities(
                Capabilities.of(client, clock), remote -> Capabilities.HELM_DEFAULTS)),
        new ReleaseHistoryReader(new SecretReader(client))::history);
  }

  /**
   * What the next install or upgrade of {@code release} would write.
   *
   * @throws Unavailable when its chart, values, records or render cannot be had, or it is released
   *     into a remote cluster ({@code spec.kubeConfig})
   */
  public Preview preview(HelmRelease release) {
    if (release.getSpec().kubeConfig() != null) {
      // its records, objects and Capabilities are in the remote cluster, which this does not read
      throw new Unavailable(
          "spec.kubeConfig names a remote cluster; only a release of the local cluster can be"
              + " previewed");
    }
    Plaintexts secrets = Plaintexts.NONE;
    try {
      ReleaseInputs.Inputs in = inputs.read(release);
      secrets = in.fromSecrets();
      ReleaseHistory history = ReleaseRecording.history(records, release);
      Optional<ReleaseRecord> deployed = history.lastDeployed();
      boolean upgrade = deployed.isPresent();
      secrets = withDeployed(secrets, in.values(), deployed);
      ReleaseAdoption.Baseline baseline = ReleaseWork.baseline(release, history, upgrade);
      // a release of a remote cluster is refused above: the local cluster's Capabilities hold
      ReleaseRender.Rendered rendered = render.render(release, in, upgrade, Optional.empty());
      List<GenericKubernetesResource> objects =
          ManifestObjects.of(rendered.release().manifest(), release);
      Optional<String> moved =
          ReleaseTarget.changed(release, in.chart())
              .or(() -> ReleaseTarget.renamed(release, rendered.release().chart().name()))
              .map(why -> why + ": " + ReleaseTarget.recordedRelease(release));
      return new Preview(
          in.chart().source(),
          in.chart().revision(),
          upgrade,
          ReleaseApply.owner(release),
          objects,
          stale(release, baseline, objects),
          secrets,
          moved);
    } catch (ReleaseFailure e) {
      throw new Unavailable(secrets.redact(e.getMessage()));
    } catch (IllegalArgumentException e) {
      throw new Unavailable(secrets.redact(e.getMessage()));
    }
  }

  /** The engine's prune after applying {@code objects}: from the status's inventory and more. */
  private static List<ObjectRef> stale(
      HelmRelease release,
      ReleaseAdoption.Baseline baseline,
      List<GenericKubernetesResource> objects) {
    Set<ObjectRef> rendered = ReleaseAdoption.refs(objects, release.releaseNamespace());
    InventorySet previous = Inventories.toApplier(ReleaseStatusStage.inventoryOf(release));
    return ReleaseApply.pruneFrom(previous, baseline, rendered)
        .staleAfter(InventorySet.of(rendered));
  }

  /**
   * {@code secrets} and every value of the deployed release that differs from the new one at its
   * place (or whose place is gone): the record cannot say which came from a Secret (a valuesFrom
   * entry since removed, a Secret since renamed, a value since moved inline), and the live objects
   * the diff shows may quote any of them, so all that change are masked.
   */
  private static Plaintexts withDeployed(
      Plaintexts secrets, Map<String, Object> values, Optional<ReleaseRecord> deployed) {
    if (deployed.isEmpty() || deployed.get().release().config() == null) {
      return secrets;
    }
    List<String> older = new ArrayList<>();
    older(deployed.get().release().config(), values, older, 0);
    return older.isEmpty() ? secrets : secrets.andValues(older);
  }

  private static void older(JsonNode then, Object now, List<String> into, int depth) {
    if (then == null || then.isNull() || into.size() >= MAX_VALUES) {
      return;
    }
    if (depth > MAX_DEPTH) {
      into.add(then.toString()); // not walked: masked whole rather than shown
      return;
    }
    if (then.isObject()) {
      Map<?, ?> map = now instanceof Map<?, ?> m ? m : Map.of();
      then.fields()
          .forEachRemaining(e -> older(e.getValue(), map.get(e.getKey()), into, depth + 1));
    } else if (then.isArray()) {
      List<?> list = now instanceof List<?> l ? l : List.of();
      for (int i = 0; i < then.size(); i++) {
        older(then.get(i), i < list.size() ? list.get(i) : null, into, depth + 1);
      }
    } else if (now == null
        || now instanceof Map<?, ?>
        || now instanceof List<?>
        || !String.valueOf(now).equals(then.asText())) {
      into.add(then.asText());
    }
  }
}
