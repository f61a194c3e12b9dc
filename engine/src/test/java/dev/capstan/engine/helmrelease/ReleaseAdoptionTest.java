package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseBuilder;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A release another client made, continued by a HelmRelease: which records count as foreign, what
 * the upgrade from one prunes, and which existing objects may be taken without taking ownership.
 */
class ReleaseAdoptionTest {
  private static final Owner.HelmReleaseName RELEASE = new Owner.HelmReleaseName("podinfo", "apps");

  private final ReleaseFakes fakes = new ReleaseFakes();

  @Test
  void aDeployedRecordIsForeignUnlessTheStatusHistoryHoldsItsVersion() {
    HelmRelease release = ReleaseFakes.release();
    fakes.pipeline().reconcile(release);
    Release ours = fakes.records.get(1).release();
    HelmReleaseStatus status = release.getStatus();

    assertFalse(ReleaseAdoption.foreign(ours, status), "the status recorded version 1");
    assertTrue(ReleaseAdoption.foreign(ours, null), "no status: a new HelmRelease");
    assertTrue(
        ReleaseAdoption.foreign(ReleaseBuilder.builder(ours).version(2).build(), status),
        "a version helm upgrade made by hand after Capstan's");
    assertTrue(
        ReleaseAdoption.foreign(ReleaseBuilder.builder(ours).namespace("prod").build(), status),
        "a release of the same name and version in another namespace");
  }

  @Test
  void theBaselineIsTheManifestInTheReleaseNamespaceAndWhatTheRenderDropsIsPruned() {
    Release helms = helmRecord().release();
    ReleaseAdoption.Baseline baseline = ReleaseAdoption.baseline(Optional.of(helms), null);
    Set<ObjectRef> rendered = ReleaseAdoption.refs(objects("render.yaml"), "apps");

    assertTrue(baseline.foreign());
    assertEquals(
        List.of(
            "v1/Service/apps/podinfo",
            "apps/v1/Deployment/apps/podinfo",
            "v1/ConfigMap/apps/podinfo-extra",
            "rbac.authorization.k8s.io/v1beta1/ClusterRole/apps/podinfo-reader"),
        baseline.refs().stream().map(ReleaseAdoptionTest::name).sorted(this::inManifest).toList());
    assertEquals(
        List.of("v1/ConfigMap/apps/podinfo-extra"),
        ReleaseAdoption.dropped(baseline.refs(), rendered).stream()
            .map(ReleaseAdoptionTest::name)
            .toList(),
        "a new apiVersion of the same object is the same object");
    Release elsewhere = ReleaseBuilder.builder(helms).namespace("prod").build();
    assertEquals(
        List.of("apps", "prod", "prod", "prod"),
        ReleaseAdoption.baseline(Optional.of(elsewhere), null).refs().stream()
            .map(ObjectRef::namespace)
            .sorted()
            .toList(),
        "objects without a namespace are in the record's release namespace, the ConfigMap in its"
            + " own");
    assertEquals(
        List.of("v1/Secret/apps/podinfo-token"),
        ReleaseAdoption.added(rendered, baseline.refs()).stream()
            .map(ReleaseAdoptionTest::name)
            .toList());
    assertEquals(ReleaseAdoption.Baseline.NONE, ReleaseAdoption.baseline(Optional.empty(), null));
  }

  @Test
  void aManifestThatIsNotObjectsIsRefusedWithoutQuotingIt() {
    Release broken = ReleaseBuilder.builder(helmRecord().release()).manifest("a: [s3cr3t").build();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ReleaseAdoption.baseline(Optional.of(broken), null));
    assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
    assertTrue(
        e.getMessage().startsWith("it is not YAML"), "not the rendered one: " + e.getMessage());
  }

  @Test
  void anAdoptedReleaseIsUpgradedAsItsNextVersionAndWhatItDroppedIsPruned() {
    ReleaseRecord helms = helmRecord();
    fakes.records.put(1, helms);
    fakes.manifest = ReleaseFakes.read("manifest.yaml");
    HelmRelease release = ReleaseFakes.release();

    fakes.pipeline().reconcile(release);

    assertEquals(List.of("2 pending-upgrade", "2 deployed", "1 superseded"), fakes.recordLog);
    assertEquals(ReleaseStatus.SUPERSEDED, fakes.records.get(1).release().status());
    assertEquals(
        helms.release().info().firstDeployed(),
        fakes.records.get(2).release().info().firstDeployed(),
        "the history goes on");
    InventorySet prunedFrom = fakes.prunedFrom.get(fakes.prunedFrom.size() - 1);
    assertEquals(
        List.of(
            "rbac.authorization.k8s.io/v1beta1/ClusterRole/apps/podinfo-reader",
            "v1/ConfigMap/apps/podinfo-extra"),
        prunedFrom.refs().stream().map(ReleaseAdoptionTest::name).sorted().toList(),
        "the objects of Helm's release the render dropped; the status held no inventory");
    assertEquals(
        "Helm upgrade succeeded for release apps/podinfo.v2 with chart podinfo@6.5.0",
        release.getStatus().conditions().get(0).getMessage());

    fakes.prunedFrom.clear();
    release.getMetadata().setGeneration(2L);
    ((ObjectNode) release.getSpec().values()).put("replicaCount", 2);
    fakes.pipeline().reconcile(release);
    assertEquals(
        List.of(),
        fakes.prunedFrom.get(0).refs().stream().filter(r -> r.kind().equals("ConfigMap")).toList(),
        "once its own, the release is upgraded from its inventory alone");
  }

  @Test
  void anInstallOverAnOlderDeployedRecordPrunesNothingOfIt() {
    ReleaseRecord helms = helmRecord();
    fakes.records.put(1, helms);
    Release uninstalled =
        ReleaseBuilder.builder(helms.release())
            .version(2)
            .build()
            .withStatus(ReleaseStatus.UNINSTALLED);
    fakes.records.put(
        2,
        new ReleaseRecord(
            "apps", ReleaseRecord.secretName("podinfo", 2), "2", Map.of(), uninstalled));
    fakes.manifest = ReleaseFakes.read("manifest.yaml");
    HelmRelease release = ReleaseFakes.release();

    fakes.pipeline().reconcile(release);

    assertEquals("install", release.getStatus().lastAttemptedReleaseAction().name());
    assertTrue(
        fakes.prunedFrom.stream().allMatch(i -> i.refs().isEmpty()),
        "Helm's install prunes nothing: " + fakes.prunedFrom);
  }

  @Test
  void aRefusedInstallWritesNoRecordAndIsNoReleaseFailure() {
    fakes.manifest = ReleaseFakes.read("manifest.yaml");
    fakes.live =
        (object, namespace) ->
            new ObjectMetaBuilder().withName(object.getMetadata().getName()).build();
    HelmRelease release =
        new KubernetesSerialization()
            .unmarshal(
                ReleaseFakes.read("podinfo.yaml")
                    .replace("\nspec:\n", "\nspec:\n  install:\n    disableTakeOwnership: true\n"),
                HelmRelease.class);

    fakes.pipeline().reconcile(release);

    assertEquals(List.of(), fakes.recordLog, "Helm refuses before it writes a record");
    assertEquals(0, fakes.applies, "nothing is written");
    Condition ready =
        release.getStatus().conditions().stream()
            .filter(c -> c.getType().equals("Ready"))
            .findFirst()
            .orElseThrow();
    assertEquals("False", ready.getStatus());
    assertEquals("InstallFailed", ready.getReason());
    assertTrue(
        ready.getMessage().contains("exists and cannot be taken into release 'apps/podinfo'"),
        ready.getMessage());
    assertTrue(
        release.getStatus().conditions().stream().noneMatch(c -> c.getType().equals("Released")),
        "no release failed, so none is remediated");
    assertNull(release.getStatus().installFailures(), "no failure counted");
  }

  static Stream<Arguments> ownership() {
    List<Arguments> cases = new ArrayList<>();
    for (Map<String, Object> c : ownershipCases()) {
      cases.add(
          Arguments.of(c.get("case"), c.get("labels"), c.get("annotations"), c.get("refused")));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ownership")
  void anExistingObjectIsTakenOnlyWhenHelmsMetadataNamesTheRelease(
      String name, Map<String, String> labels, Map<String, String> annotations, String refused) {
    ObjectMeta live =
        new ObjectMetaBuilder()
            .withName("podinfo-token")
            .withNamespace("apps")
            .withLabels(labels)
            .withAnnotations(annotations)
            .build();
    ObjectRef ref = ObjectRef.of("v1", "Secret", "apps", "podinfo-token");

    assertEquals(Optional.ofNullable(refused), ReleaseAdoption.conflict(ref, live, RELEASE), name);
  }

  @Test
  void onlyTheObjectsTheReleaseAddsAreReadAndEachRefusedOneIsNamed() {
    List<String> read = new ArrayList<>();
    ReleaseClaims claims =
        new ReleaseClaims(
            (object, namespace) -> {
              read.add(object.getKind() + " " + namespace);
              return new ObjectMetaBuilder().withLabels(Map.of("app", "podinfo")).build();
            });
    List<GenericKubernetesResource> rendered = objects("render.yaml");
    Set<ObjectRef> added =
        Set.of(
            ObjectRef.of("v1", "Secret", "apps", "podinfo-token").withoutVersion(),
            ObjectRef.of("rbac.authorization.k8s.io/v1", "ClusterRole", "apps", "podinfo-reader")
                .withoutVersion());

    String message = claims.refused(rendered, added, "apps", RELEASE).orElseThrow();

    assertEquals(List.of("ClusterRole apps", "Secret apps"), read);
    assertTrue(message.startsWith("ClusterRole 'apps/podinfo-reader' exists"), message);
    assertTrue(message.contains("; Secret 'apps/podinfo-token' exists"), message);
    assertTrue(message.endsWith("(taking ownership is disabled by disableTakeOwnership: true)"));
    assertEquals(
        Optional.empty(),
        new ReleaseClaims((object, namespace) -> null).refused(rendered, added, "apps", RELEASE),
        "objects that do not exist are created");
  }

  @Test
  void aKindNotServedYetHasNoObjectsButAFailedReadIsNotAbsence() {
    assertNull(
        ReleaseClaims.metadataOrNone(
            () -> {
              throw new KubernetesClientException(
                  "Could not find the metadata for the given apiVersion and kind");
            }),
        "the custom resource of a CRD the chart's crds/ writes first");
    assertNull(
        ReleaseClaims.metadataOrNone(
            () -> {
              throw new KubernetesClientException("not found", 404, null);
            }));
    KubernetesClientException unreachable =
        new KubernetesClientException("connect", new IOException("refused"));
    assertSame(
        unreachable,
        assertThrows(
            KubernetesClientException.class,
            () ->
                ReleaseClaims.metadataOrNone(
                    () -> {
                      throw unreachable;
                    })));
    KubernetesClientException forbidden = new KubernetesClientException("forbidden", 403, null);
    assertThrows(
        KubernetesClientException.class,
        () ->
            ReleaseClaims.metadataOrNone(
                () -> {
                  throw forbidden;
                }));
  }

  /** Version 1 of apps/podinfo as {@code helm install} left it. */
  private ReleaseRecord helmRecord() {
    HelmRelease other = ReleaseFakes.release();
    ReleaseFakes made = new ReleaseFakes();
    made.pipeline().reconcile(other);
    Release release =
        ReleaseBuilder.builder(made.records.get(1).release())
            .manifest(read("helm-manifest.yaml"))
            .build();
    return new ReleaseRecord(
        "apps", ReleaseRecord.secretName("podinfo", 1), "1", Map.of(), release);
  }

  private int inManifest(String a, String b) {
    List<String> order = List.of("Service", "Deployment", "ConfigMap", "ClusterRole");
    return Integer.compare(
        order.indexOf(a.split("/")[a.split("/").length - 3]),
        order.indexOf(b.split("/")[b.split("/").length - 3]));
  }

  private static String name(ObjectRef ref) {
    String group = ref.group().isEmpty() ? "" : ref.group() + "/";
    return group + ref.version() + "/" + ref.kind() + "/" + ref.namespace() + "/" + ref.name();
  }

  private static List<GenericKubernetesResource> objects(String fixture) {
    return ManifestObjects.parse(read(fixture), "the fixture");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> ownershipCases() {
    try {
      return new ObjectMapper(new YAMLFactory()).readValue(read("ownership.yaml"), List.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(String name) {
    try (InputStream in =
        ReleaseAdoptionTest.class.getResourceAsStream("/helmrelease/adoption/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
