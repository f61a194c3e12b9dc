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

/** A Git repository that Capstan fetches at an interval into an artifact. */
@Group(GitRepository.GROUP)
@Version(GitRepository.VERSION)
@Kind("GitRepository")
@Plural("gitrepositories")
@Singular("gitrepository")
@ShortNames("gitrepo")
@Categories({"all", "fluxcd", "fluxcd-sources"})
@AdditionalPrinterColumn(
    name = "URL",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".spec.url")
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
    name = "AGE",
    type = AdditionalPrinterColumn.Type.DATE,
    jsonPath = ".metadata.creationTimestamp")
@AdditionalPrinterColumn(
    name = "VERIFIED",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1,
    jsonPath = ".status.conditions[?(@.type==\"SourceVerified\")].status")
public class GitRepository extends RecordResource<GitRepositorySpec, GitRepositoryStatus> {
  public static final String GROUP = "source.capstan.dev";
  public static final String VERSION = "v1";
}
