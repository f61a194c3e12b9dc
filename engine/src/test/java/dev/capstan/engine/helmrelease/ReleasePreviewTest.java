package dev.capstan.engine.helmrelease;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.kube.ObjectRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReleasePreviewTest {
  private final ReleaseFakes fakes = new ReleaseFakes();

  @Test
  void theRecordsAreReadWhereTheEngineKeepsThemInTheStorageNamespace() {
    HelmRelease release = ReleaseFakes.releaseAt("preview/elsewhere.yaml");
    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline().reconcile(release).kind());
    fakes.recordsNamespace = "helm-records";

    ReleasePreview.Preview preview = fakes.preview().preview(release);

    assertEquals(List.of("helm-records"), fakes.previewReads);
    assertTrue(preview.upgrade(), "the deployed record is found: an upgrade");
    assertEquals(List.of(), preview.stale());
  }

  @Test
  void aChangedTargetSaysTheRecordedReleaseIsUninstalledFirst() {
    HelmRelease release = ReleaseFakes.release();
    fakes.pipeline().reconcile(release);
    assertEquals(Optional.empty(), fakes.preview().preview(release).uninstallFirst());

    fakes.chartName = "other";
    ReleasePreview.Preview preview = fakes.preview().preview(release);

    assertEquals(
        Optional.of("chart name changed: release apps/podinfo.v1 with chart podinfo@6.5.0"),
        preview.uninstallFirst());
  }

  @Test
  void aReleaseWithoutRecordsIsAnInstallThatPrunesNothing() {
    HelmRelease release = ReleaseFakes.release();

    ReleasePreview.Preview preview = fakes.preview().preview(release);

    assertFalse(preview.upgrade());
    assertEquals(List.of(), preview.stale());
    assertEquals(2, preview.objects().size());
  }

  @Test
  void whatTheRenderDropsIsWhatTheStatusInventoryHasBeyondIt() {
    HelmRelease release = ReleaseFakes.releaseAt("preview/elsewhere.yaml");
    fakes.pipeline().reconcile(release);
    fakes.manifest = ReleaseFakes.read("manifest-without-service.yaml");

    ReleasePreview.Preview preview = fakes.preview().preview(release);

    assertEquals(
        List.of("Service/web/podinfo"), preview.stale().stream().map(ObjectRef::display).toList());
  }

  @Test
  void aForeignReleasesObjectsTheRenderDropsArePrunedAsTheEngineWouldFromItsBaseline() {
    HelmRelease release = ReleaseFakes.releaseAt("preview/elsewhere.yaml");
    fakes.pipeline().reconcile(release);
    release.setStatus(null); // no snapshot of the deployed record: another client's release
    fakes.manifest = ReleaseFakes.read("manifest-without-service.yaml");

    ReleasePreview.Preview preview = fakes.preview().preview(release);

    // the record's manifest names no namespace: the record's own namespace, as the engine reads it
    assertEquals(
        List.of("Service/web/podinfo"), preview.stale().stream().map(ObjectRef::display).toList());
  }

  @Test
  void everyDeployedValueThatChangesIsMaskedWhereverItCameFrom() {
    fakes.valuesObjects.put(
        "Secret/creds",
        Map.of("token", "old-token-value".getBytes(UTF_8), "pin", "123".getBytes(UTF_8)));
    HelmRelease before = ReleaseFakes.releaseAt("preview/from-secret.yaml");
    fakes.pipeline().reconcile(before);
    // the valuesFrom entry removed and the token now inline: no Secret says the old one was one
    HelmRelease after = ReleaseFakes.releaseAt("preview/inline.yaml");
    after.setStatus(before.getStatus());

    Plaintexts masked = fakes.preview().preview(after).fromSecrets();

    assertEquals("-  token: ***", masked.redactLines("-  token: old-token-value"));
    assertEquals("-  pin: ***", masked.redactLines("-  pin: 123"));
    assertEquals("   color: blue", masked.redactLines("   color: blue"), "unchanged: shown");
  }

  @Test
  void aReleaseIntoARemoteClusterIsRefusedBeforeAnythingIsRead() {
    HelmRelease release = ReleaseFakes.releaseAt("remote/kubeconfig.yaml");

    ReleasePreview.Unavailable refused =
        assertThrows(ReleasePreview.Unavailable.class, () -> fakes.preview().preview(release));

    assertEquals(
        "spec.kubeConfig names a remote cluster; only a release of the local cluster can be"
            + " previewed",
        refused.getMessage());
    assertEquals(0, fakes.renders);
    assertEquals(List.of(), fakes.previewReads);
  }
}
