package dev.capstan.api.kustomize;

import dev.capstan.api.common.RecordResource;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A path of a Git source, built and applied to the cluster, then watched for health. */
@Group(Kustomization.GROUP)
@Version(Kustomization.VERSION)
@Kind("Kustomization")
@Plural("kustomizations")
@Singular("kustomization")
@ShortNames("ks")
@Categories({"all", "fluxcd", "fluxcd-appliers"})
@AdditionalPrinterColumn(
    name = "READY",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@AdditionalPrinterColumn(
    name = "HEALTHY",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Healthy\")].status")
@AdditionalPrinterColumn(
    name = "REVISION",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.lastAppliedRevision")
@AdditionalPrinterColumn(
    name = "STATUS",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].message")
@AdditionalPrinterColumn(
    name = "AGE",
    type = AdditionalPrinterColumn.Type.DATE,
    jsonPath = ".metadata.creationTimestamp")
@AdditionalPrinterColumn(
    name = "KUBECONFIG",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1,
    jsonPath = ".spec.kubeConfig.secretRef.name")
@AdditionalPrinterColumn(
    name = "DECRYPTION",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1,
    jsonPath = ".spec.decryption.provider")
@AdditionalPrinterColumn(
    name = "REPLICA",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1,
    jsonPath = ".metadata.labels.shards\\.capstan\\.dev/replica")
@AdditionalPrinterColumn(
    name = "DRIFTED",
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1,
    jsonPath = ".status.conditions[?(@.type==\"Drifted\")].status")
@ValidationRule(
    value =
        "!has(self.spec.dependsOn) || self.spec.dependsOn.all(d, d.name != self.metadata.name"
            + " || (has(d.__namespace__) && d.__namespace__ != '')"
            + " || (has(d.kind) && d.kind != 'Kustomization')"
            + " || (has(d.apiVersion) && !d.apiVersion.startsWith('kustomize.capstan.dev/')))",
    message = "spec.dependsOn: a Kustomization cannot depend on itself")
public class Kustomization extends RecordResource<KustomizationSpec, KustomizationStatus> {
  public static final String GROUP = "kustomize.capstan.dev";
  public static final String VERSION = "v1";
}
