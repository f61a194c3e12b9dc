package dev.capstan.applier.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.TestObjects;
import dev.capstan.applier.apply.DesiredObject;
import dev.capstan.kube.ObjectRef;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiffRendererTest {

  private static Map<String, Object> map(String yaml) {
    return DesiredObject.asMap(TestObjects.yaml(yaml));
  }

  @Test
  void serverMaintainedFieldsAndDigestAreNotShown() {
    var live =
        map(
            """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: c
              namespace: n
              uid: 1234
              resourceVersion: "7"
              creationTimestamp: "2026-01-01T00:00:00Z"
              annotations: {capstan.dev/applied-digest: old}
              managedFields: [{manager: capstan, operation: Apply}]
            data: {a: "1", b: "2"}
            """);
    var desired =
        map(
            """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: c
              namespace: n
              uid: 1234
              resourceVersion: "8"
              annotations: {capstan.dev/applied-digest: new}
              managedFields: [{manager: capstan, operation: Apply}, {manager: x}]
            data: {a: "1", b: "3"}
            """);
    String diff =
        DiffRenderer.render(new ObjectRef("", "v1", "ConfigMap", "n", "c"), live, desired);
    assertEquals(
        """
        --- live/ConfigMap/n/c
        +++ desired/ConfigMap/n/c
        @@ -1,7 +1,7 @@
         apiVersion: "v1"
         data:
           a: "1"
        -  b: "2"
        +  b: "3"
         kind: "ConfigMap"
         metadata:
           name: "c"
        """,
        diff);
  }

  @Test
  void equalObjectsRenderNothing() {
    var object =
        map(
            "apiVersion: v1\n"
                + "kind: ConfigMap\n"
                + "metadata: {name: c, resourceVersion: '1'}\n"
                + "data: {a: b}\n");
    var same =
        map(
            "apiVersion: v1\n"
                + "kind: ConfigMap\n"
                + "metadata: {name: c, resourceVersion: '2'}\n"
                + "data: {a: b}\n");
    assertEquals(
        "", DiffRenderer.render(new ObjectRef("", "v1", "ConfigMap", "", "c"), object, same));
  }

  @Test
  void secretValuesAreMaskedWithAChangeMarker() {
    String secretA = "c3VwZXItc2VjcmV0LUE="; // super-secret-A
    String secretB = "c3VwZXItc2VjcmV0LUI="; // super-secret-B
    var live =
        map(
            """
            apiVersion: v1
            kind: Secret
            metadata:
              name: s
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: '{"data":{"password":"%s"}}'
            data: {password: %s, user: dXNlcg==, gone: Z29uZQ==}
            """
                .formatted(secretA, secretA));
    var desired =
        map(
            """
            apiVersion: v1
            kind: Secret
            metadata: {name: s}
            data: {password: %s, user: dXNlcg==, added: YWRkZWQ=}
            """
                .formatted(secretB));
    String diff = DiffRenderer.render(new ObjectRef("", "v1", "Secret", "", "s"), live, desired);
    assertFalse(
        diff.contains(secretA)
            || diff.contains(secretB)
            || diff.contains("dXNlcg")
            || diff.contains("YWRkZWQ"),
        diff);
    assertFalse(diff.contains("last-applied"), diff);
    assertTrue(diff.contains("-  password: \"***\""), diff);
    assertTrue(diff.contains("+  password: \"*** (changed)\""), diff);
    assertTrue(diff.contains("   user: \"*** (unchanged)\""), diff);
    assertTrue(diff.contains("-  gone: \"***\""), diff);
    assertTrue(diff.contains("+  added: \"*** (changed)\""), diff);
  }

  @Test
  void newSecretShowsOnlyMasksIncludingStringData() {
    var desired =
        map(
            "apiVersion: v1\n"
                + "kind: Secret\n"
                + "metadata: {name: s}\n"
                + "stringData: {token: plain-text-token}\n");
    String diff = DiffRenderer.render(new ObjectRef("", "v1", "Secret", "", "s"), null, desired);
    assertFalse(diff.contains("plain-text-token"), diff);
    assertTrue(diff.startsWith("--- /dev/null"), diff);
    assertTrue(diff.contains("+  token: \"*** (changed)\""), diff);
  }
}
