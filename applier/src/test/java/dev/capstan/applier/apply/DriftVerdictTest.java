package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.applier.TestObjects;
import dev.capstan.applier.apply.DriftPolicy.Mode;
import dev.capstan.applier.common.CapstanMetadata;
import dev.capstan.applier.common.Owner;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What each drift mode does with an object, from its live metadata. */
class DriftVerdictTest {
  private static final ResourceType CONFIG_MAP =
      new ResourceType("", "v1", "ConfigMap", "configmaps", true);

  private final DesiredObject desired =
      DesiredObject.prepare(
          TestObjects.configMap("shop", "settings", "value", "1"),
          CONFIG_MAP,
          new Owner("k", "ns"),
          "shop");

  @Test
  void anObjectInItsAppliedStateIsUnchangedInEveryModeThatApplies() {
    for (Mode mode : List.of(Mode.CORRECT, Mode.REPORT, Mode.IGNORE)) {
      assertEquals(
          DriftVerdict.UNCHANGED,
          DriftVerdict.of(live("capstan"), desired, policy(mode)),
          mode.name());
    }
  }

  @Test
  void anObjectAnotherWriterTookIsWrittenReportedOrLeftAlone() {
    GenericKubernetesResource edited = live("kubectl-edit");
    assertEquals(DriftVerdict.WRITE, DriftVerdict.of(edited, desired, policy(Mode.CORRECT)));
    assertEquals(DriftVerdict.INSPECT, DriftVerdict.of(edited, desired, policy(Mode.REPORT)));
    assertEquals(DriftVerdict.UNCHANGED, DriftVerdict.of(edited, desired, policy(Mode.IGNORE)));
  }

  @Test
  void aMissingObjectAppliedBeforeIsCreatedReportedOrLeftOut() {
    assertEquals(DriftVerdict.WRITE, DriftVerdict.of(null, desired, policy(Mode.CORRECT)));
    assertEquals(DriftVerdict.INSPECT, DriftVerdict.of(null, desired, policy(Mode.REPORT)));
    assertEquals(DriftVerdict.LEFT_OUT, DriftVerdict.of(null, desired, policy(Mode.IGNORE)));
  }

  @Test
  void aNewObjectOrOneWhoseManifestChangedIsWrittenInEveryModeThatApplies() {
    GenericKubernetesResource older = live("capstan");
    older.getMetadata().getAnnotations().put(CapstanMetadata.APPLIED_DIGEST, "sha256:older");
    for (Mode mode : List.of(Mode.CORRECT, Mode.REPORT, Mode.IGNORE)) {
      DriftPolicy nothingExpected = new DriftPolicy(mode, Set.of());
      assertEquals(DriftVerdict.WRITE, DriftVerdict.of(null, desired, nothingExpected));
      assertEquals(DriftVerdict.WRITE, DriftVerdict.of(older, desired, policy(mode)));
    }
  }

  private DriftPolicy policy(Mode mode) {
    return DriftPolicy.of(mode, List.of(desired.ref()));
  }

  /**
   * The live ConfigMap as Capstan applied it; with {@code dataManager} other than capstan, that
   * manager's update took its data.
   */
  private GenericKubernetesResource live(String dataManager) {
    boolean ours = dataManager.equals("capstan");
    String others =
        ours
            ? ""
            : """
            - manager: %s
              operation: Update
              apiVersion: v1
              fieldsType: FieldsV1
              fieldsV1: {f:data: {f:value: {}}}
            """
                .formatted(dataManager);
    return TestObjects.yaml(
        """
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: settings
          namespace: shop
          labels: {kustomize.capstan.dev/name: k, kustomize.capstan.dev/namespace: ns}
          annotations: {capstan.dev/applied-digest: "%s"}
          managedFields:
          - manager: capstan
            operation: Apply
            apiVersion: v1
            fieldsType: FieldsV1
            fieldsV1:
              f:metadata:
                f:annotations: {f:capstan.dev/applied-digest: {}}
                f:labels: {f:kustomize.capstan.dev/name: {}, f:kustomize.capstan.dev/namespace: {}}
              %s
        %s
        data: {value: "1"}
        """
            .formatted(desired.digest(), ours ? "f:data: {f:value: {}}" : "", others.indent(2)));
  }

  @Test
  void aLookComparesEveryObjectAndWritesNoneWhateverItsDigest() {
    GenericKubernetesResource older = live("capstan");
    older.getMetadata().getAnnotations().put(CapstanMetadata.APPLIED_DIGEST, "sha256:older");
    GenericKubernetesResource noDigest = live("capstan");
    noDigest.getMetadata().getAnnotations().remove(CapstanMetadata.APPLIED_DIGEST);
    DriftPolicy nothingExpected = new DriftPolicy(Mode.LOOK, Set.of());
    for (GenericKubernetesResource live :
        Arrays.asList(older, noDigest, live("capstan"), live("kubectl-edit"), null)) {
      assertEquals(DriftVerdict.INSPECT, DriftVerdict.of(live, desired, policy(Mode.LOOK)));
      assertEquals(DriftVerdict.INSPECT, DriftVerdict.of(live, desired, nothingExpected));
    }
  }
}
