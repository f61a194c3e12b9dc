package dev.capstan.api.source;

import dev.capstan.api.common.RecordResource;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A Helm chart packaged as an artifact: a version of a chart in a HelmRepository's index, or a
 * chart directory in a GitRepository's artifact, with its values files merged in.
 */
@Group(GitRepository.GROUP)
@Version(GitRepository.VERSION)
@Kind("HelmChart")
@Plural("helmcharts")
@Singular("helmchart")
@ShortNames("hc")
@Categories({"all", "fluxcd", "fluxcd-sources"})
@AdditionalPrinterColumn(
    name = "Chart",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.chart")
@AdditionalPrinterColumn(
    name = "Version",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.version")
@AdditionalPrinterColumn(
    name = "Source Kind",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.sourceRef.kind")
@AdditionalPrinterColumn(
    name = "Source Name",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.sourceRef.name")
@AdditionalPrinterColumn(
    name = "Age",
    type = AdditionalPrinterColumn.Type.DATE,
    jsonPath = ".metadata.creationTimestamp")
@AdditionalPrinterColumn(
    name = "Ready",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@AdditionalPrinterColumn(
    name = "Status",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].message")
public class HelmChart extends RecordResource<HelmChartSpec, HelmChartStatus> {}
