package dev.capstan.kustomize.chart;

/**
 * What a render does to the chart's own version, as Flux's helm-controller does for a chart from an
 * OCI artifact: the tag the artifact was pulled by must be the chart's version, and the artifact's
 * digest replaces the version's build metadata before the templates see it, so that a tag pushed
 * again with other content is a new chart version.
 *
 * @param tag the tag the chart's version must equal as a semantic version; empty: none is asked
 * @param build the build metadata the version takes; empty: the chart's own stays
 */
public record ChartVersionPin(String tag, String build) {
  /** The chart's version as it is, as {@code helm template} leaves it. */
  public static final ChartVersionPin NONE = new ChartVersionPin("", "");

  public ChartVersionPin {
    tag = tag == null ? "" : tag;
    build = build == null ? "" : build;
  }
}
