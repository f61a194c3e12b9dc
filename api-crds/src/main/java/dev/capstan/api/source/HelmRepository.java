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
 * A Helm chart repository: an HTTP(S) {@code index.yaml} Capstan downloads at an interval into an
 * artifact, or (type oci) the address of a chart registry, recorded for the charts that name it.
 */
@Group(GitRepository.GROUP)
@Version(GitRepository.VERSION)
@Kind("HelmRepository")
@Plural("helmrepositories")
@Singular("helmrepository")
@ShortNames("helmrepo")
@Categories({"all", "fluxcd", "fluxcd-sources"})
@AdditionalPrinterColumn(
    name = "URL",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.url")
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
public class HelmRepository extends RecordResource<HelmRepositorySpec, HelmRepositoryStatus> {}
