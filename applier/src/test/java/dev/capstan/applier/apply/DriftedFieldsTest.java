package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.applier.TestObjects;
import dev.capstan.applier.common.CapstanMetadata;
import dev.capstan.applier.ignore.JsonPointer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fields another writer changed, named by JSON Pointers, keys without values. */
class DriftedFieldsTest {

  private static final Map<String, Object> LIVE =
      map(
          """
          apiVersion: v1
          kind: Secret
          metadata:
            name: db
            namespace: shop
            resourceVersion: "7"
            labels: {app: db, added: "yes"}
            annotations: {a/b: edited}
          data: {password: c2VjcmV0LWxpdmU=, user: YQ==}
          spec:
            ports: [{port: 80}, {port: 9090}]
            replicas: 5
          status: {phase: whatever}
          """);

  private static final Map<String, Object> APPLIED =
      map(
          """
          apiVersion: v1
          kind: Secret
          metadata:
            name: db
            namespace: shop
            resourceVersion: "8"
            labels: {app: db}
            annotations: {a/b: original}
          data: {password: c2VjcmV0LWdpdA==, user: YQ==}
          spec:
            ports: [{port: 80}, {port: 8080}]
            replicas: 2
          status: {phase: other}
          """);

  @Test
  void namesEachChangedFieldAndNothingOfTheServersBookkeeping() {
    assertEquals(
        List.of(
            "/data/password",
            "/metadata/annotations/a~1b",
            "/metadata/labels/added",
            "/spec/ports/1/port",
            "/spec/replicas"),
        DriftedFields.between(LIVE, APPLIED, List.of()));
  }

  @Test
  void leavesIgnoredFieldsOut() {
    assertEquals(
        List.of("/data/password", "/spec/ports/1/port"),
        DriftedFields.between(
            LIVE,
            APPLIED,
            List.of(JsonPointer.parse("/spec/replicas"), JsonPointer.parse("/metadata"))));
  }

  @Test
  void aListOfAnotherLengthIsOneField() {
    Map<String, Object> shorter = map("spec: {ports: [{port: 80}]}");
    Map<String, Object> longer = map("spec: {ports: [{port: 80}, {port: 81}]}");
    assertEquals(List.of("/spec/ports"), DriftedFields.between(shorter, longer, List.of()));
  }

  private static Map<String, Object> map(String yaml) {
    return DesiredObject.asMap(TestObjects.yaml(yaml.contains("kind") ? yaml : "kind: X\n" + yaml));
  }

  @Test
  void anotherAppliedDigestIsNoDrift() {
    Map<String, Object> live =
        Map.of(
            "metadata",
            Map.of("annotations", Map.of(CapstanMetadata.APPLIED_DIGEST, "sha256:a", "x", "1")));
    Map<String, Object> looked =
        Map.of(
            "metadata",
            Map.of("annotations", Map.of(CapstanMetadata.APPLIED_DIGEST, "sha256:b", "x", "2")));
    assertEquals(
        List.of("/metadata/annotations/x"), DriftedFields.between(live, looked, List.of()));
  }
}
