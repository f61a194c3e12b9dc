package dev.capstan.cli.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class FieldDifferencesTest {

  @Test
  void everyRefusedFieldIsNamedWithWhatCapstanDoes() {
    List<Manifest> refused = MigrationFixtures.load("refused.yaml");

    assertEquals(
        List.of(
            "refused spec.provider: cloud provider 'aws' is refused by the engine (InvalidSpec)"),
        texts(MigrationFixtures.named(refused, "GitRepository", "aws")));
    assertEquals(
        List.of(
            "refused spec.verify: keyless cosign verification (no secretRef) needs the public"
                + " Sigstore services and is refused"),
        texts(MigrationFixtures.named(refused, "OCIRepository", "keyless")));
    assertEquals(
        List.of(
            "refused spec.verify.provider: verification provider 'notation' is refused; only"
                + " cosign with public keys is supported"),
        texts(MigrationFixtures.named(refused, "OCIRepository", "notation")));
    assertEquals(
        List.of("refused spec.sts: STS is refused"),
        texts(MigrationFixtures.named(refused, "Bucket", "sts")));
    assertEquals(
        List.of(
            "refused spec.sourceRef.kind: a chart from a Bucket is refused"
                + " (UnsupportedSourceKind)"),
        texts(MigrationFixtures.named(refused, "HelmChart", "from-bucket")));
    assertEquals(
        List.of(
            "refused spec.decryption.serviceAccountName: cloud KMS through a service account is"
                + " refused (InvalidSpec)",
            "different spec.decryption: SOPS MACs are verified (Flux skips the check); age and"
                + " OpenPGP keys only, no KMS, Vault or key groups"),
        texts(MigrationFixtures.named(refused, "Kustomization", "kms")));
    assertEquals(
        List.of(
            "refused status.inventory: it applies Flux's Kustomization flux-system/apps, which its"
                + " twin would apply again next to the migrated one; change the source to"
                + " Capstan's groups first"),
        texts(MigrationFixtures.named(refused, "Kustomization", "flux-system")));
  }

  @Test
  void rewrittenReferencesAndDifferentBehaviourAreNamedToo() {
    List<Manifest> flux = MigrationFixtures.load("flux-cluster.yaml");

    assertEquals(
        List.of(
            "different spec.wait: a health wait in progress ends when a new revision arrives"
                + " (HealthCheckCanceled), as with Flux's CancelHealthCheckOnNewRevision gate on",
            "rewritten spec.sourceRef.apiVersion: becomes source.capstan.dev/v1"),
        texts(MigrationFixtures.named(flux, "Kustomization", "apps")));
    assertEquals(
        List.of(
            "different spec.wait: a health wait in progress ends when a new revision arrives"
                + " (HealthCheckCanceled), as with Flux's CancelHealthCheckOnNewRevision gate on",
            "rewritten spec.healthChecks: checks of Flux's source, Kustomization and"
                + " HelmRelease kinds are rewritten to Capstan's groups"),
        texts(MigrationFixtures.named(flux, "Kustomization", "infra-controllers")));
    assertEquals(List.of(), texts(MigrationFixtures.named(flux, "GitRepository", "flux-system")));
  }

  private static List<String> texts(Manifest object) {
    return FieldDifferences.of(object).stream().map(Difference::toString).toList();
  }
}
