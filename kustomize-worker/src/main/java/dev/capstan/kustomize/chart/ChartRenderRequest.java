package dev.capstan.kustomize.chart;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One chart to render, with the options of {@code helm template}.
 *
 * @param root the directory the chart lies in (an artifact, or the command line's root): the render
 *     reads nothing outside it, and it must lie below the renderer's sandbox root
 * @param chart the chart directory or {@code .tgz} file, relative to {@code root}
 * @param releaseName the release's name ({@code helm template NAME})
 * @param namespace the release's namespace ({@code --namespace})
 * @param values values documents (YAML or JSON), each merged over the ones before as {@code -f a -f
 *     b} merges its files; the chart's own values lie under them all
 * @param set {@code --set} expressions in Helm's syntax, set over the values in order after the
 *     documents, by Helm's own parser
 * @param kubeVersion {@code --kube-version}; empty for Helm's default
 * @param apiVersions {@code --api-versions}, added to Helm's default list
 * @param includeCrds {@code --include-crds}: the chart's {@code crds/} at the head of the manifest
 * @param skipTests {@code --skip-tests}: no test hooks
 * @param disableHooks {@code --no-hooks}: no hooks at all
 * @param isUpgrade {@code --is-upgrade}
 * @param skipSchemaValidation {@code --skip-schema-validation}
 * @param postRenderers Flux's {@code spec.postRenderers}, applied in order (none: Helm's output as
 *     it renders it)
 * @param postRenderStrategy Flux's {@code spec.postRenderStrategy} (null: {@link
 *     PostRenderStrategy#COMBINED}, Helm 4's default)
 * @param lookups answers the chart's {@code lookup} calls (null or {@link ChartLookups#NONE}:
 *     lookup finds nothing, as in {@code helm template})
 * @param versionPin what the render does to the chart's version (null: {@link
 *     ChartVersionPin#NONE}, as {@code helm template})
 */
@RecordBuilder
public record ChartRenderRequest(
    Path root,
    String chart,
    String releaseName,
    String namespace,
    List<String> values,
    List<String> set,
    String kubeVersion,
    List<String> apiVersions,
    boolean includeCrds,
    boolean skipTests,
    boolean disableHooks,
    boolean isUpgrade,
    boolean skipSchemaValidation,
    List<ChartPostRenderer> postRenderers,
    PostRenderStrategy postRenderStrategy,
    ChartLookups lookups,
    ChartVersionPin versionPin)
    implements ChartRenderRequestBuilder.With {

  public ChartRenderRequest {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(chart, "chart");
    Objects.requireNonNull(releaseName, "releaseName");
    Objects.requireNonNull(namespace, "namespace");
    values = values == null ? List.of() : List.copyOf(values);
    set = set == null ? List.of() : List.copyOf(set);
    kubeVersion = kubeVersion == null ? "" : kubeVersion;
    apiVersions = apiVersions == null ? List.of() : List.copyOf(apiVersions);
    postRenderers = postRenderers == null ? List.of() : List.copyOf(postRenderers);
    postRenderStrategy =
        postRenderStrategy == null ? PostRenderStrategy.COMBINED : postRenderStrategy;
    lookups = lookups == null ? ChartLookups.NONE : lookups;
    versionPin = versionPin == null ? ChartVersionPin.NONE : versionPin;
  }

  /** The chart rendered with its own values only, and every other option as Helm's default. */
  public static ChartRenderRequest of(
      Path root, String chart, String releaseName, String namespace) {
    return new ChartRenderRequest(
        root,
        chart,
        releaseName,
        namespace,
        List.of(),
        List.of(),
        "",
        List.of(),
        false,
        false,
        false,
        false,
        false,
        List.of(),
        PostRenderStrategy.COMBINED,
        ChartLookups.NONE,
        ChartVersionPin.NONE);
  }
}
