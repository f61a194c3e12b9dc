package dev.capstan.applier.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StrategicMergeTest {
  private static Map<String, Object> yaml(String text) {
    return new YamlReader().readMapping(text, "test");
  }

  private static Map<String, Object> merge(String kind, boolean builtIn, String original, String patch) {
    return new StrategicMerge(new MergeKeys(builtIn, kind)).apply(yaml(original), yaml(patch));
  }

  @Test
  void containersMergeByNameAndEnvByNameWithPatchItemsFirst() {
    Map<String, Object> result =
        merge("Pod", true,
            "spec:\n  containers:\n  - {name: a, image: x, env: [{name: A, value: '1'}]}\n  - {name: b, image: x}\n",
            "spec:\n  containers:\n  - {name: b, image: y}\n  - {name: a, env: [{name: B, value: '2'}]}\n  - {name: c, image: z}\n");
    assertEquals(
        yaml("spec:\n  containers:\n  - {name: b, image: y}\n"
            + "  - {name: a, image: x, env: [{name: B, value: '2'}, {name: A, value: '1'}]}\n"
            + "  - {name: c, image: z}\n"),
        result);
  }

  @Test
  void directivesDeleteAndReplace() {
    Map<String, Object> result =
        merge("Deployment", true,
            "spec:\n  template:\n    spec:\n      volumes: [{name: a, emptyDir: {}}, {name: b, emptyDir: {}}]\n"
                + "      affinity: {nodeAffinity: {x: 1}, podAffinity: {y: 2}}\n",
            "spec:\n  template:\n    spec:\n      volumes: [{name: a, $patch: delete}]\n"
                + "      affinity: {$patch: replace, podAntiAffinity: {z: 3}}\n");
    assertEquals(
        yaml("spec:\n  template:\n    spec:\n      volumes: [{name: b, emptyDir: {}}]\n"
            + "      affinity: {podAntiAffinity: {z: 3}}\n"),
        result);
  }

  @Test
  void servicePortsMergeByPortAndContainerPortsByContainerPort() {
    assertEquals(
        yaml("spec:\n  ports: [{port: 80, targetPort: 9}, {port: 443}]\n"),
        merge("Service", true, "spec:\n  ports: [{port: 443}, {port: 80, targetPort: 8}]\n",
            "spec:\n  ports: [{port: 80, targetPort: 9}]\n"));
  }

  @Test
  void listsWithoutMergeKeyAreReplacedAndNullDeletes() {
    assertEquals(
        yaml("spec:\n  template:\n    spec:\n      tolerations: [{key: b}]\n"),
        merge("Deployment", true,
            "spec:\n  template:\n    spec:\n      tolerations: [{key: a}]\n      hostNetwork: true\n",
            "spec:\n  template:\n    spec:\n      tolerations: [{key: b}]\n      hostNetwork: null\n"));
  }

  @Test
  void customResourcesGetJsonMergePatch() {
    assertEquals(
        yaml("spec:\n  containers: [{name: b}]\n  keep: 1\n"),
        merge("Widget", false, "spec:\n  containers: [{name: a}]\n  keep: 1\n  drop: 2\n",
            "spec:\n  containers: [{name: b}]\n  drop: null\n"));
  }

  @Test
  void deleteDirectiveAtTheTopRemovesTheObject() {
    assertNull(merge("ConfigMap", true, "data: {a: b}\n", "$patch: delete\n"));
  }

  @Test
  void finalizersMergeAsASet() {
    assertEquals(
        yaml("metadata:\n  finalizers: [c, a, b]\n"),
        merge("Deployment", true, "metadata:\n  finalizers: [a, b]\n", "metadata:\n  finalizers: [c, a]\n"));
  }
}
