package dev.capstan.cli.migrate;

import dev.capstan.cli.migrate.Difference.Treatment;
import dev.capstan.cli.migrate.FieldDifferences.Row;
import java.util.List;
import java.util.Optional;

/**
 * The rows of {@link FieldDifferences} for HelmReleases: what Capstan's HelmRelease refuses
 * (docs/engine-reconcile.md, "How a HelmRelease is reconciled") blocks the object, what it does not
 * do yet is named as different, and the release's adoption is said of every one. Pure.
 */
final class HelmReleaseDifferences {

  private static final FluxKind KIND = FluxKind.HELM_RELEASE;

  private HelmReleaseDifferences() {}

  static List<Row> rows() {
    return List.of(
        FieldDifferences.present(
            KIND,
            "spec.kubeConfig",
            Treatment.DIFFERENT,
            "a kubeconfig with tls-server-name or impersonation is refused"),
        FieldDifferences.refusedUnless(
            KIND,
            "spec.chartRef.kind",
            v -> !v.equals("ExternalArtifact"),
            "a chartRef to an %s is refused"),
        FieldDifferences.refusedUnless(
            KIND,
            "spec.chart.spec.sourceRef.kind",
            v -> !v.equals("Bucket"),
            "a chart from a %s is refused (UnsupportedSourceKind)"),
        new Row(
            KIND,
            "spec.chart.spec.verify",
            o ->
                FieldDifferences.has(o, "spec.chart.spec.verify")
                        && !FieldDifferences.has(o, "spec.chart.spec.verify.secretRef")
                    ? FieldDifferences.refused(
                        "spec.chart.spec.verify",
                        "keyless cosign verification (no secretRef) is refused")
                    : Optional.empty()),
        FieldDifferences.rewritten(KIND, "spec.chart.spec.sourceRef.apiVersion"),
        FieldDifferences.rewritten(KIND, "spec.chartRef.apiVersion"),
        new Row(KIND, "spec.test.enable", HelmReleaseDifferences::tests),
        FieldDifferences.present(
            KIND,
            "spec.rollback",
            Treatment.DIFFERENT,
            "its options are not applied yet: a rollback is deployed once applied, without a"
                + " wait"),
        retryOnFailure("spec.install.strategy.name"),
        retryOnFailure("spec.upgrade.strategy.name"),
        new Row(
            KIND,
            "status.history",
            o ->
                Optional.of(
                    new Difference(
                        "status.history",
                        Treatment.DIFFERENT,
                        "the twin adopts the existing release (same name and storage"
                            + " namespace, objects patched in place): its first reconcile"
                            + " records it as one new Helm revision, an upgrade with the same"
                            + " chart and values"))));
  }

  private static Optional<Difference> tests(Manifest object) {
    return Boolean.TRUE.equals(FieldDifferences.value(object, "spec.test.enable"))
        ? Optional.of(
            new Difference("spec.test.enable", Treatment.DIFFERENT, "Helm tests are not run yet"))
        : Optional.empty();
  }

  private static Row retryOnFailure(String field) {
    return new Row(
        KIND,
        field,
        o ->
            "RetryOnFailure".equals(FieldDifferences.value(o, field))
                ? Optional.of(
                    new Difference(
                        field, Treatment.DIFFERENT, "the RetryOnFailure strategy is not there yet"))
                : Optional.empty());
  }
}
