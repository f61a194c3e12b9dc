package dev.capstan.api.source;

import dev.capstan.api.common.RecordResource;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An object storage bucket (S3-compatible, or a cloud provider's) whose objects Capstan downloads
 * at an interval into an artifact, as a GitRepository's tree is.
 */
@Group(GitRepository.GROUP)
@Version(GitRepository.VERSION)
@Kind("Bucket")
@Plural("buckets")
@Singular("bucket")
@Categories({"all", "fluxcd", "fluxcd-sources"})
@AdditionalPrinterColumn(
    name = "Endpoint",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.endpoint")
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
public class Bucket extends RecordResource<BucketSpec, BucketStatus> {}
