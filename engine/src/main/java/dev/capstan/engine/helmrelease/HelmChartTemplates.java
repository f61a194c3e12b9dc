package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmChartTemplate;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSourceReference;
import dev.capstan.api.source.HelmChartSpec;
import dev.capstan.api.source.OCIRepositoryVerification;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HelmChart a HelmRelease's {@code spec.chart} describes, as Flux's helm-controller makes it:
 * named {@code <namespace>-<name>} of the HelmRelease, in the source's namespace (the HelmRelease's
 * when the template names none), its spec the template's (the interval defaults to the
 * HelmRelease's), the template's labels and annotations, and the labels that name the HelmRelease
 * that owns it.
 */
public final class HelmChartTemplates {
  /** The label naming the HelmRelease a HelmChart was made for. */
  public static final String NAME_LABEL = HelmRelease.GROUP + "/name";

  /** The label naming that HelmRelease's namespace. */
  public static final String NAMESPACE_LABEL = HelmRelease.GROUP + "/namespace";

  private HelmChartTemplates() {}

  /**
   * The HelmChart {@code release}'s template describes.
   *
   * @throws IllegalArgumentException when the release has no {@code spec.chart}
   */
  public static HelmChart desired(HelmRelease release) {
    HelmChartTemplate template = release.getSpec().chart();
    if (template == null) {
      throw new IllegalArgumentException(
          "HelmRelease " + release.getMetadata().getName() + " has no spec.chart");
    }
    HelmChartTemplate.Spec spec = template.spec();
    HelmChart chart = new HelmChart();
    chart.setMetadata(
        new ObjectMetaBuilder()
            .withName(release.helmChartName())
            .withNamespace(sourceNamespace(release))
            .withLabels(labels(release, template))
            .withAnnotations(template.metadata() == null ? null : template.metadata().annotations())
            .build());
    chart.setSpec(
        new HelmChartSpec(
            spec.chart(),
            spec.version(),
            new HelmChartSourceReference(
                spec.sourceRef().apiVersion(), spec.sourceRef().kind(), spec.sourceRef().name()),
            spec.interval() == null ? release.getSpec().interval() : spec.interval(),
            spec.reconcileStrategy(),
            spec.valuesFiles(),
            null,
            spec.ignoreMissingValuesFiles(),
            null,
            null,
            verification(spec.verify())));
    return chart;
  }

  /** The namespace of the HelmChart: the template's source's, else the HelmRelease's. */
  public static String sourceNamespace(HelmRelease release) {
    String namespace = release.getSpec().chart().spec().sourceRef().namespace();
    return namespace == null || namespace.isEmpty()
        ? release.getMetadata().getNamespace()
        : namespace;
  }

  /** The namespace of the object {@code spec.chartRef} names: its own, else the HelmRelease's. */
  static String chartRefNamespace(HelmRelease release) {
    String namespace = release.getSpec().chartRef().namespace();
    return namespace == null || namespace.isEmpty()
        ? release.getMetadata().getNamespace()
        : namespace;
  }

  private static Map<String, String> labels(HelmRelease release, HelmChartTemplate template) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (template.metadata() != null && template.metadata().labels() != null) {
      labels.putAll(template.metadata().labels());
    }
    labels.put(NAME_LABEL, release.getMetadata().getName());
    labels.put(NAMESPACE_LABEL, release.getMetadata().getNamespace());
    return labels;
  }

  private static OCIRepositoryVerification verification(HelmChartTemplate.Verification verify) {
    if (verify == null) {
      return null;
    }
    String provider = verify.provider() == null ? null : verify.provider().name();
    return new OCIRepositoryVerification(provider, verify.secretRef(), null, null);
  }
}
