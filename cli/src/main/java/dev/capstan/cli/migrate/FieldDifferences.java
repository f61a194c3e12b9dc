package dev.capstan.cli.migrate;

import dev.capstan.cli.migrate.Difference.Treatment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The table of the fields of Flux's objects that Capstan refuses or treats differently
 * (docs/engine-reconcile.md and docs/kustomization-features.md say why), and what each is found to
 * be on one object. Pure.
 */
final class FieldDifferences {

  /** One row: a kind, the field, and what is said of the object's value when there is one. */
  record Row(FluxKind kind, String field, Function<Manifest, Optional<Difference>> check) {}

  private static final List<Row> TABLE = table();

  private FieldDifferences() {}

  /** The differences found on {@code object}, in the table's order. */
  static List<Difference> of(Manifest object) {
    List<Difference> found = new ArrayList<>();
    for (Row row : TABLE) {
      if (row.kind() == object.kind()) {
        row.check().apply(object).ifPresent(found::add);
      }
    }
    return List.copyOf(found);
  }

  /** Whether any difference of {@code differences} keeps the object from migrating. */
  static boolean refused(List<Difference> differences) {
    return differences.stream().anyMatch(d -> d.treatment() == Treatment.REFUSED);
  }

  private static List<Row> table() {
    List<Row> rows = new ArrayList<>();
    String cloudProvider = "cloud provider '%s' is refused by the engine (InvalidSpec)";
    for (FluxKind kind :
        List.of(
            FluxKind.GIT_REPOSITORY,
            FluxKind.OCI_REPOSITORY,
            FluxKind.BUCKET,
            FluxKind.HELM_REPOSITORY)) {
      String allowed = kind == FluxKind.GIT_REPOSITORY ? "github" : "generic";
      rows.add(
          refusedUnless(
              kind, "spec.provider", v -> v.equals("generic") || v.equals(allowed), cloudProvider));
    }
    rows.add(
        refusedUnless(
            FluxKind.OCI_REPOSITORY,
            "spec.verify.provider",
            "cosign"::equals,
            "verification provider '%s' is refused; only cosign with public keys is supported"));
    for (FluxKind kind : List.of(FluxKind.OCI_REPOSITORY, FluxKind.HELM_CHART)) {
      rows.add(
          new Row(
              kind,
              "spec.verify",
              o ->
                  has(o, "spec.verify") && !has(o, "spec.verify.secretRef")
                      ? refused(
                          "spec.verify",
                          "keyless cosign verification (no secretRef) needs the public Sigstore"
                              + " services and is refused")
                      : Optional.empty()));
    }
    rows.add(
        present(
            FluxKind.OCI_REPOSITORY,
            "spec.verify.trustedRootSecretRef",
            Treatment.REFUSED,
            "keyless verification with a trusted root is refused"));
    rows.add(
        refusedUnless(
            FluxKind.HELM_CHART,
            "spec.sourceRef.kind",
            v -> !v.equals("Bucket"),
            "a chart from a %s is refused (UnsupportedSourceKind)"));
    rows.add(present(FluxKind.BUCKET, "spec.sts", Treatment.REFUSED, "STS is refused"));
    rows.add(
        present(
            FluxKind.BUCKET,
            "spec.serviceAccountName",
            Treatment.REFUSED,
            "workload identity is refused"));
    rows.add(
        present(
            FluxKind.KUSTOMIZATION,
            "spec.decryption.serviceAccountName",
            Treatment.REFUSED,
            "cloud KMS through a service account is refused (InvalidSpec)"));
    rows.add(
        present(
            FluxKind.KUSTOMIZATION,
            "spec.decryption",
            Treatment.DIFFERENT,
            "SOPS MACs are verified (Flux skips the check); age and OpenPGP keys only, no KMS,"
                + " Vault or key groups"));
    rows.add(
        present(
            FluxKind.KUSTOMIZATION,
            "spec.kubeConfig",
            Treatment.DIFFERENT,
            "a kubeconfig with tls-server-name or impersonation is refused"));
    rows.add(
        new Row(
            FluxKind.KUSTOMIZATION,
            "spec.wait",
            o ->
                Boolean.TRUE.equals(value(o, "spec.wait")) || has(o, "spec.healthChecks")
                    ? Optional.of(
                        new Difference(
                            "spec.wait",
                            Treatment.DIFFERENT,
                            "a health wait in progress ends when a new revision arrives"
                                + " (HealthCheckCanceled), as with Flux's"
                                + " CancelHealthCheckOnNewRevision gate on"))
                    : Optional.empty()));
    rows.add(
        new Row(
            FluxKind.KUSTOMIZATION,
            "spec.sourceRef.kind",
            o ->
                "ExternalArtifact".equals(value(o, "spec.sourceRef.kind"))
                    ? Optional.of(
                        new Difference(
                            "spec.sourceRef.kind",
                            Treatment.DIFFERENT,
                            "the artifact URL is downloaded only as capstan run's"
                                + " --artifact-url-allow-prefix allows; a loopback or"
                                + " link-local host is refused unless listed"))
                    : Optional.empty()));
    rows.add(rewritten(FluxKind.KUSTOMIZATION, "spec.sourceRef.apiVersion"));
    rows.add(rewritten(FluxKind.HELM_CHART, "spec.sourceRef.apiVersion"));
    rows.addAll(HelmReleaseDifferences.rows());
    rows.add(new Row(FluxKind.KUSTOMIZATION, "spec.healthChecks", FieldDifferences::healthChecks));
    rows.add(new Row(FluxKind.KUSTOMIZATION, "status.inventory", FieldDifferences::fluxInventory));
    rows.add(
        new Row(
            FluxKind.EXTERNAL_ARTIFACT,
            "status.artifact",
            o ->
                Optional.of(
                    new Difference(
                        "status.artifact",
                        Treatment.DIFFERENT,
                        "copied once to the twin; its producer ("
                            + value(o, "spec.sourceRef.kind")
                            + ") must write source.capstan.dev ExternalArtifacts from now on"))));
    return List.copyOf(rows);
  }

  /** Health checks of Flux's own kinds are rewritten to the twins' groups. */
  private static Optional<Difference> healthChecks(Manifest object) {
    if (!(value(object, "spec.healthChecks") instanceof List<?> checks)) {
      return Optional.empty();
    }
    for (Object check : checks) {
      String apiVersion = String.valueOf(Manifest.map(check).get("apiVersion"));
      if (!FluxKind.toCapstan(apiVersion).equals(apiVersion)) {
        return Optional.of(
            new Difference(
                "spec.healthChecks",
                Treatment.REWRITTEN,
                "checks of Flux's source, Kustomization and HelmRelease kinds are rewritten to"
                    + " Capstan's groups"));
      }
    }
    return Optional.empty();
  }

  /**
   * A Kustomization that applies Flux objects (a flux-system Kustomization applying the others)
   * would make its twin apply them again next to their twins: its source must name Capstan's groups
   * first.
   */
  private static Optional<Difference> fluxInventory(Manifest object) {
    for (Object entry : object.inventory()) {
      String id = String.valueOf(Manifest.map(entry).get("id"));
      String[] parts = id.split("_");
      if (parts.length >= 4) {
        String group = parts[parts.length - 2];
        String kind = parts[parts.length - 1];
        boolean flux =
            FluxKind.named(kind).isPresent()
                && !FluxKind.toCapstan(group + "/v1").equals(group + "/v1");
        if (flux) {
          return refused(
              "status.inventory",
              "it applies Flux's "
                  + kind
                  + " "
                  + parts[0]
                  + "/"
                  + parts[1]
                  + ", which its twin would apply again next to the migrated one; change the"
                  + " source to Capstan's groups first");
        }
      }
    }
    return Optional.empty();
  }

  /** A reference's apiVersion, rewritten to Capstan's group when the object gives one. */
  static Row rewritten(FluxKind kind, String field) {
    return new Row(
        kind,
        field,
        o ->
            has(o, field)
                ? Optional.of(
                    new Difference(
                        field,
                        Treatment.REWRITTEN,
                        "becomes " + FluxKind.toCapstan(String.valueOf(value(o, field)))))
                : Optional.empty());
  }

  static Row refusedUnless(FluxKind kind, String field, Predicate<String> allowed, String says) {
    return new Row(
        kind,
        field,
        o -> {
          Object value = value(o, field);
          return value == null || allowed.test(String.valueOf(value))
              ? Optional.empty()
              : refused(field, String.format(says, value));
        });
  }

  static Row present(FluxKind kind, String field, Treatment treatment, String says) {
    return new Row(
        kind,
        field,
        o ->
            has(o, field) ? Optional.of(new Difference(field, treatment, says)) : Optional.empty());
  }

  static Optional<Difference> refused(String field, String says) {
    return Optional.of(new Difference(field, Treatment.REFUSED, says));
  }

  static boolean has(Manifest object, String path) {
    return value(object, path) != null;
  }

  /** The value at a dotted path of the object, null when any step is missing. */
  static Object value(Manifest object, String path) {
    Object node = object.object().getAdditionalProperties();
    for (String step : path.split("\\.")) {
      if (!(node instanceof Map<?, ?> map)) {
        return null;
      }
      node = map.get(step);
    }
    return Objects.equals(node, "") ? null : node;
  }
}
