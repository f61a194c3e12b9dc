package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.helm.CrdsPolicy;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.PostRenderer;
import dev.capstan.api.kustomize.Image;
import dev.capstan.api.kustomize.Patch;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.kustomization.HealthTracking.RemoteCluster;
import dev.capstan.kustomize.chart.ChartPostRenderer;
import dev.capstan.kustomize.chart.ChartRender;
import dev.capstan.kustomize.chart.ChartRenderException;
import dev.capstan.kustomize.chart.ChartRenderRequest;
import dev.capstan.kustomize.chart.ChartRenderRequestBuilder;
import dev.capstan.kustomize.chart.PostRenderStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The render stage: the chart rendered in a chart worker as Helm's install or upgrade renders it
 * (release name and namespace, the composed values, the Capabilities of the cluster it is installed
 * in, the chart's CRDs as the install's or upgrade's {@code crds} policy says, tests only when
 * {@code spec.test.enable}), with {@code spec.postRenderers} run by the worker inside Helm's
 * post-render step, and {@code spec.commonMetadata} set after them ({@link CommonMetadataRender}).
 */
final class ReleaseRender {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChartRendering renderer;
  private final ReleaseCapabilities capabilities;

  ReleaseRender(ChartRendering renderer, ReleaseCapabilities capabilities) {
    this.renderer = renderer;
    this.capabilities = capabilities;
  }

  /**
   * A release rendered.
   *
   * @param release what the release record keeps: the manifest without the chart's {@code crds/}
   * @param crds the chart's {@code crds/} documents (empty with the policy Skip)
   * @param crdsPolicy what the action does with them
   */
  record Rendered(ChartRender release, String crds, CrdsPolicy crdsPolicy) {}

  /**
   * Renders the release's chart.
   *
   * @param upgrade whether a deployed release is upgraded (else installed)
   * @param cluster the remote cluster the release is installed in; empty: the engine's own
   * @throws ReleaseFailure InstallFailed or UpgradeFailed with Helm's message
   */
  Rendered render(
      HelmRelease release,
      ReleaseInputs.Inputs inputs,
      boolean upgrade,
      Optional<RemoteCluster> cluster) {
    HelmReleaseSpec spec = release.getSpec();
    Capabilities target = capabilities.of(cluster);
    CrdsPolicy crds =
        upgrade ? spec.effectiveUpgrade().effectiveCrds() : spec.effectiveInstall().effectiveCrds();
    ChartRenderRequest request =
        ChartRenderRequestBuilder.builder()
            .root(inputs.chart().root())
            .chart(inputs.chart().chart())
            .releaseName(release.releaseName())
            .namespace(release.releaseNamespace())
            .values(List.of(json(inputs)))
            .kubeVersion(target.kubeVersion())
            .apiVersions(target.apiVersions())
            .includeCrds(crds != CrdsPolicy.Skip)
            .skipTests(!spec.testsEnabled())
            .isUpgrade(upgrade)
            .postRenderers(postRenderers(spec))
            .postRenderStrategy(strategy(spec.effectivePostRenderStrategy()))
            .versionPin(inputs.chart().versionPin())
            .build();
    ChartRender all;
    try {
      all = renderer.render(request);
    } catch (ChartRenderException e) {
      if (e.stage() == ChartRenderException.Stage.VERSION) {
        // as Flux's ChartMutateError: no release was attempted, so no remediation is due
        throw ReleaseFailure.failed(
            ReleaseReason.CHART_MUTATE_ERROR, inputs.chart().source() + ": " + e.getMessage());
      }
      throw failed(upgrade, "for chart of " + inputs.chart().source() + ": " + e.describe());
    }
    ReleaseCrds.Split split = ReleaseCrds.split(all.manifest());
    try {
      // The chart's crds/ are not post-rendered, as in Helm: commonMetadata spares them too.
      ChartRender made =
          CommonMetadataRender.apply(
              new ChartRender(all.chart(), split.manifest(), all.hooks(), all.notes()),
              spec.commonMetadata(),
              spec.effectivePostRenderStrategy());
      return new Rendered(made, split.crds(), crds);
    } catch (CommonMetadataRender.NotYaml e) {
      throw failed(upgrade, "setting commonMetadata: " + e.getMessage());
    }
  }

  private static ReleaseFailure failed(boolean upgrade, String what) {
    return ReleaseFailure.releaseFailed(
        upgrade ? ReleaseReason.UPGRADE_FAILED : ReleaseReason.INSTALL_FAILED,
        "Helm " + (upgrade ? "upgrade" : "install") + " failed " + what);
  }

  /** The spec's post-renderers as the chart worker takes them, in order. */
  static List<ChartPostRenderer> postRenderers(HelmReleaseSpec spec) {
    List<ChartPostRenderer> all = new ArrayList<>();
    for (PostRenderer renderer : spec.allPostRenderers()) {
      PostRenderer.Kustomize k = renderer.kustomize();
      if (k == null) {
        continue;
      }
      List<ChartPostRenderer.Patch> patches = new ArrayList<>();
      for (Patch p : k.patches() == null ? List.<Patch>of() : k.patches()) {
        patches.add(new ChartPostRenderer.Patch(p.patch(), target(p.target())));
      }
      List<ChartPostRenderer.Image> images = new ArrayList<>();
      for (Image i : k.images() == null ? List.<Image>of() : k.images()) {
        images.add(new ChartPostRenderer.Image(i.name(), i.newName(), i.newTag(), i.digest()));
      }
      all.add(new ChartPostRenderer(patches, images));
    }
    return all;
  }

  private static ChartPostRenderer.Target target(Patch.Selector s) {
    return s == null
        ? null
        : new ChartPostRenderer.Target(
            s.group(),
            s.version(),
            s.kind(),
            s.name(),
            s.namespace(),
            s.labelSelector(),
            s.annotationSelector());
  }

  private static PostRenderStrategy strategy(HelmReleaseSpec.PostRenderStrategy strategy) {
    return switch (strategy) {
      case nohooks -> PostRenderStrategy.NOHOOKS;
      case combined -> PostRenderStrategy.COMBINED;
      case separate -> PostRenderStrategy.SEPARATE;
    };
  }

  private static String json(ReleaseInputs.Inputs inputs) {
    try {
      return JSON.writeValueAsString(inputs.values());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("composed values are always JSON", e);
    }
  }
}
