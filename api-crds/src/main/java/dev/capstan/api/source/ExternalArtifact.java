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
 * An artifact another controller produces (Flux's ExternalArtifact): its status names a tarball's
 * URL and digest, which a Kustomization builds from. Capstan only reads it.
 */
@Group(GitRepository.GROUP)
@Version(GitRepository.VERSION)
@Kind("ExternalArtifact")
@Plural("externalartifacts")
@Singular("externalartifact")
@ShortNames("ea")
@Categories({"all", "fluxcd", "fluxcd-sources"})
@AdditionalPrinterColumn(
    name = "READY",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@AdditionalPrinterColumn(
    name = "REVISION",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.artifact.revision")
@AdditionalPrinterColumn(
    name = "STATUS",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].message")
@AdditionalPrinterColumn(
    name = "SOURCE",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.sourceRef.name")
@AdditionalPrinterColumn(
    name = "AGE",
    type = AdditionalPrinterColumn.Type.DATE,
    jsonPath = ".metadata.creationTimestamp")
public class ExternalArtifact
    extends RecordResource<ExternalArtifactSpec, ExternalArtifactStatus> {}
