package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.common.CapstanMetadata;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.applier.ignore.JsonPointer;
import dev.capstan.applier.kustomize.PatchSelector;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Ignored fields in the decision to write ({@link FieldOwnership}) and in what is written ({@link
 * IgnoredFieldsResolver}), over a Deployment and the live states of {@code ignore/deployment.yaml}.
 */
class IgnoredFieldsTest {
  private static final ResourceType DEPLOYMENT =
      new ResourceType("apps", "v1", "Deployment", "deployments", true);
  private static final Owner OWNER = new Owner("k", "ns");
  private static final String REPLICAS = "/spec/replicas";
  private static final String APP_RESOURCES = "/spec/template/spec/containers/0/resources";

  @Test
  void aFieldScaledByAnotherWriterIsAChangeUnlessIgnored() {
    assertFalse(unchanged(desired(), "scaled"), "without the rule the scale is drift");
    assertTrue(unchanged(desired(REPLICAS), "scaled"));
    assertTrue(unchanged(desired(REPLICAS), "applied-by-another"));
  }

  @Test
  void aChangeOfAnIgnoredFieldInTheSourceAloneIsNoChange() {
    GenericKubernetesResource moreReplicas = fixture("desired");
    ((Map<String, Object>) spec(moreReplicas)).put("replicas", 3);
    DesiredObject changed = prepare(moreReplicas, REPLICAS);
    assertEquals(desired(REPLICAS).digest(), changed.digest());
    assertTrue(unchanged(changed, "scaled"));
    assertFalse(
        prepare(moreReplicas).digest().equals(desired().digest()), "counted without the rule");
  }

  @Test
  void anIgnoredFieldInsideAListItemIsLeftOutAndTheRestOfTheItemStillCounts() {
    assertFalse(unchanged(desired(), "resized"));
    assertTrue(unchanged(desired(APP_RESOURCES), "resized"));
    assertFalse(
        unchanged(desired(APP_RESOURCES), "resized-and-edited"),
        "the image edited in the same item is still drift");
  }

  @Test
  void aTargetSelectsTheObjectsARuleAppliesTo() {
    IgnoreRules onlyStatefulSets =
        IgnoreRules.compile(
            List.of(
                new IgnoreRules.Rule(
                    List.of(REPLICAS),
                    new PatchSelector(null, null, "StatefulSet", null, null, null, null))),
            "spec.ignore");
    DesiredObject d =
        DesiredObject.prepare(fixture("desired"), DEPLOYMENT, OWNER, "shop", onlyStatefulSets);
    assertEquals(List.of(), d.ignored());
    assertFalse(unchanged(d, "scaled"));
  }

  @Test
  void aFieldOnlyCapstanAppliesIsAdoptedWithItsLiveValue() {
    DesiredObject d = desired(REPLICAS);
    DesiredObject sent = IgnoredFieldsResolver.resolve(d, live(d, "scaled"));
    assertEquals(5, ((Number) spec(sent.object()).get("replicas")).intValue());
    assertEquals(d.digest(), sent.digest(), "the digest is the manifest's");
    assertEquals(d.digest(), annotations(sent).get(CapstanMetadata.APPLIED_DIGEST));
  }

  @Test
  void aFieldAnotherApplyManagerOwnsIsStripped() {
    DesiredObject d = desired(REPLICAS);
    DesiredObject sent = IgnoredFieldsResolver.resolve(d, live(d, "applied-by-another"));
    assertFalse(spec(sent.object()).containsKey("replicas"));
    assertEquals(OWNER.labels().get(Owner.NAME_LABEL), labels(sent).get(Owner.NAME_LABEL));
  }

  @Test
  void anIgnoredFieldInAListItemIsAdoptedAndTheOtherFieldsAreSentAsTheManifestHasThem() {
    DesiredObject d = desired(APP_RESOURCES);
    DesiredObject sent = IgnoredFieldsResolver.resolve(d, live(d, "resized-and-edited"));
    Map<String, Object> app = container(sent.object(), 0);
    assertEquals(Map.of("requests", Map.of("cpu", "250m")), app.get("resources"));
    assertEquals("nginx:1", app.get("image"), "the edited image is reverted");
  }

  @Test
  void aFieldEqualToTheLiveOneIsSentAsItIs() {
    DesiredObject d = desired(REPLICAS, APP_RESOURCES);
    assertSame(d, IgnoredFieldsResolver.resolve(d, live(d, "applied")));
  }

  @Test
  void ignoringTheLabelsKeepsTheOwnershipLabels() {
    DesiredObject d = desired("/metadata/labels");
    DesiredObject sent = IgnoredFieldsResolver.resolve(d, live(d, "scaled"));
    assertEquals("k", labels(sent).get(Owner.NAME_LABEL));
    assertEquals("ns", labels(sent).get(Owner.NAMESPACE_LABEL));
  }

  @Test
  void theWholeObjectIgnoredIsNeverAChange() {
    assertTrue(unchanged(desired(""), "resized-and-edited"));
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static boolean unchanged(DesiredObject d, String state) {
    return FieldOwnership.isUnchanged(live(d, state), d);
  }

  private static DesiredObject desired(String... pointers) {
    return prepare(fixture("desired"), pointers);
  }

  private static DesiredObject prepare(GenericKubernetesResource raw, String... pointers) {
    IgnoreRules rules =
        pointers.length == 0
            ? IgnoreRules.NONE
            : IgnoreRules.compile(
                List.of(new IgnoreRules.Rule(List.of(pointers), null)), "spec.ignore");
    return DesiredObject.prepare(raw, DEPLOYMENT, OWNER, "shop", rules);
  }

  /** The live state, carrying the digest of {@code d}. */
  private static GenericKubernetesResource live(DesiredObject d, String state) {
    GenericKubernetesResource live = fixture(state);
    live.getMetadata().getAnnotations().put(CapstanMetadata.APPLIED_DIGEST, d.digest());
    return live;
  }

  private static GenericKubernetesResource fixture(String state) {
    for (String doc : read().split("(?m)^---$")) {
      GenericKubernetesResource object =
          Serialization.unmarshal(doc, GenericKubernetesResource.class);
      if (state.equals(object.getMetadata().getLabels().get("state"))) {
        return object;
      }
    }
    throw new IllegalArgumentException("no fixture in state " + state);
  }

  private static String read() {
    try (InputStream in = IgnoredFieldsTest.class.getResourceAsStream("/ignore/deployment.yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource object) {
    return (Map<String, Object>) object.getAdditionalProperties().get("spec");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> container(GenericKubernetesResource object, int index) {
    Map<String, Object> map = DesiredObject.asMap(object);
    Optional<Object> item = JsonPointer.parse("/spec/template/spec/containers/" + index).get(map);
    return (Map<String, Object>) item.orElseThrow();
  }

  private static Map<String, String> annotations(DesiredObject d) {
    return d.object().getMetadata().getAnnotations();
  }

  private static Map<String, String> labels(DesiredObject d) {
    return d.object().getMetadata().getLabels();
  }
}
