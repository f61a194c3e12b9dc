package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.capstan.applier.TestObjects;
import dev.capstan.applier.common.CapstanMetadata;
import dev.capstan.applier.common.Owner;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DesiredObjectTest {

  static final ResourceType CONFIG_MAP =
      new ResourceType("", "v1", "ConfigMap", "configmaps", true);
  static final ResourceType SECRET = new ResourceType("", "v1", "Secret", "secrets", true);
  static final ResourceType NAMESPACE =
      new ResourceType("", "v1", "Namespace", "namespaces", false);
  static final Owner OWNER = new Owner("apps", "flux-system");

  @Test
  void addsOwnershipLabelsDigestAndDefaultNamespace() {
    var raw =
        TestObjects.yaml(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\nstatus: {x: y}\n");
    DesiredObject d = DesiredObject.prepare(raw, CONFIG_MAP, OWNER, "team");
    assertEquals("team", d.object().getMetadata().getNamespace());
    assertEquals("apps", d.object().getMetadata().getLabels().get(Owner.NAME_LABEL));
    assertEquals("flux-system", d.object().getMetadata().getLabels().get(Owner.NAMESPACE_LABEL));
    assertEquals(
        d.digest(), d.object().getMetadata().getAnnotations().get(CapstanMetadata.APPLIED_DIGEST));
    assertNull(d.object().getAdditionalProperties().get("status"));
    assertEquals(Map.of(), raw.getMetadata().getLabels(), "the input object is not modified");
  }

  @Test
  void aSecretsStringDataIsSentAsDataWithStringDataWinningOverTheSameKey() {
    var raw =
        TestObjects.yaml(
            "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"
                + "data: {kept: a2VwdA==, both: b2xk}\nstringData: {both: new, plain: 'héllo'}\n");
    var sent = DesiredObject.prepare(raw, SECRET, OWNER, "team").object().getAdditionalProperties();
    assertNull(sent.get("stringData"));
    assertEquals(Map.of("kept", "a2VwdA==", "both", "bmV3", "plain", "aMOpbGxv"), sent.get("data"));
    assertEquals(
        Map.of("both", "new", "plain", "héllo"),
        raw.getAdditionalProperties().get("stringData"),
        "the input object is not modified");
  }

  @Test
  void stringDataOfOtherKindsIsLeftAlone() {
    var raw =
        TestObjects.yaml(
            "apiVersion: example.com/v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: b}\n");
    var sent =
        DesiredObject.prepare(raw, CONFIG_MAP, OWNER, "team").object().getAdditionalProperties();
    assertEquals(Map.of("a", "b"), sent.get("stringData"));
  }

  @Test
  void clusterScopedObjectsLoseTheirNamespace() {
    var raw =
        TestObjects.yaml(
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: n, namespace: stray}\n");
    assertNull(
        DesiredObject.prepare(raw, NAMESPACE, OWNER, "team").object().getMetadata().getNamespace());
  }

  @Test
  void digestIgnoresKeyOrderAndAPreviousDigestButNotContent() {
    var a =
        TestObjects.yaml(
            "apiVersion: v1\n"
                + "kind: ConfigMap\n"
                + "metadata: {name: c, namespace: n}\n"
                + "data: {a: '1', b: '2'}\n");
    var b =
        TestObjects.yaml(
            "kind: ConfigMap\n"
                + "data: {b: '2', a: '1'}\n"
                + "apiVersion: v1\n"
                + "metadata:\n"
                + "  namespace: n\n"
                + "  name: c\n"
                + "  annotations: {capstan.dev/applied-digest: stale}\n");
    var c = TestObjects.configMap("n", "c", "a", "changed");
    String digestA = DesiredObject.prepare(a, CONFIG_MAP, OWNER, "x").digest();
    assertEquals(digestA, DesiredObject.prepare(b, CONFIG_MAP, OWNER, "x").digest());
    assertNotEquals(digestA, DesiredObject.prepare(c, CONFIG_MAP, OWNER, "x").digest());
    assertNotEquals(
        digestA,
        DesiredObject.prepare(a, CONFIG_MAP, new Owner("other", "flux-system"), "x").digest());
  }

  @Test
  void manifestDigestIsStable() {
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("b", 1);
    first.put("a", Map.of("y", 2, "x", 3));
    Map<String, Object> second = new LinkedHashMap<>();
    second.put("a", Map.of("x", 3, "y", 2));
    second.put("b", 1);
    assertEquals(ManifestDigest.of(first), ManifestDigest.of(second));
    assertEquals(71, ManifestDigest.of(first).length());
  }
}
