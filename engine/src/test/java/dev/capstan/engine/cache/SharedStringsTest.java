package dev.capstan.engine.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.kustomize.Kustomization;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

class SharedStringsTest {

  private static String configMap(String name, String uid) {
    return """
    {"apiVersion": "v1", "kind": "ConfigMap",
     "metadata": {"name": "%s", "namespace": "apps", "uid": "%s",
       "labels": {"kustomize.capstan.dev/name": "web", "kustomize.capstan.dev/namespace": "apps",
         "tier": "front"}},
     "data": {"mode": "on"}}
    """
        .formatted(name, uid);
  }

  @Test
  void repeatedFieldsOfTwoObjectsAreOneStringAndTheirOwnFieldsAreNot() {
    KubernetesSerialization json = SharedStrings.serialization();
    ConfigMap a = json.unmarshal(configMap("a", "same-uid"), ConfigMap.class);
    ConfigMap b = json.unmarshal(configMap("b", "same-uid"), ConfigMap.class);

    assertSame(a.getMetadata().getNamespace(), b.getMetadata().getNamespace());
    assertSame(a.getApiVersion(), b.getApiVersion());
    assertSame(a.getKind(), b.getKind());
    assertSame(
        a.getMetadata().getLabels().get("kustomize.capstan.dev/namespace"),
        b.getMetadata().getLabels().get("kustomize.capstan.dev/namespace"));
    assertNotSame(a.getMetadata().getUid(), b.getMetadata().getUid(), "an object's own field");
    assertNotSame(
        a.getMetadata().getLabels().get("tier"),
        b.getMetadata().getLabels().get("tier"),
        "a label Capstan does not write");
    assertEquals("on", b.getData().get("mode"));
  }

  @Test
  void aKustomizationsStatusAndAGenericObjectShareTheirs() {
    KubernetesSerialization json = SharedStrings.serialization();
    String ks =
        """
        {"apiVersion": "kustomize.capstan.dev/v1", "kind": "Kustomization",
         "metadata": {"name": "%s", "namespace": "apps"},
         "spec": {"interval": "10m", "path": "./", "prune": true,
           "sourceRef": {"kind": "GitRepository", "name": "repo"}},
         "status": {"lastAppliedRevision": "main@sha1:abc",
           "conditions": [{"type": "Ready", "status": "True", "reason": "ReconciliationSucceeded",
             "message": "Applied revision: main@sha1:abc",
             "lastTransitionTime": "2026-11-28T04:00:00Z"}],
           "inventory": {"entries": [{"id": "apps_web__ConfigMap", "v": "v1"}]}}}
        """;
    Kustomization one = json.unmarshal(ks.formatted("one"), Kustomization.class);
    Kustomization two = json.unmarshal(ks.formatted("two"), Kustomization.class);
    assertSame(one.getStatus().lastAppliedRevision(), two.getStatus().lastAppliedRevision());
    assertSame(
        one.getStatus().conditions().get(0).getMessage(),
        two.getStatus().conditions().get(0).getMessage());
    assertSame(
        one.getStatus().inventory().entries().get(0).v(),
        two.getStatus().inventory().entries().get(0).v());

    GenericKubernetesResource generic =
        json.unmarshal(configMap("c", "u"), GenericKubernetesResource.class);
    assertSame(one.getMetadata().getNamespace(), generic.getMetadata().getNamespace());
  }

  @Test
  void aLongValueIsNeverKept() throws Exception {
    SharedStrings shared = new SharedStrings(3);
    ObjectMapper mapper = new ObjectMapper().registerModule(shared);
    String json = "{\"namespace\": \"" + "n".repeat(SharedStrings.MAX_LENGTH + 1) + "\"}";
    Named one = mapper.readValue(json, Named.class);
    Named two = mapper.readValue(json, Named.class);
    assertNotSame(one.namespace, two.namespace);
    assertEquals(0, shared.kept());
  }

  @Test
  void keepsNoMoreThanItsLimitOfDistinctValues() throws Exception {
    SharedStrings shared = new SharedStrings(3);
    ObjectMapper mapper = new ObjectMapper().registerModule(shared);
    for (int i = 0; i < 10; i++) {
      mapper.readValue("{\"namespace\": \"ns-" + i + "\"}", Named.class);
      assertTrue(shared.kept() <= 3, "kept " + shared.kept());
    }
    Named one = mapper.readValue("{\"namespace\": \"apps\"}", Named.class);
    Named two = mapper.readValue("{\"namespace\": \"apps\"}", Named.class);
    assertSame(one.namespace, two.namespace, "values are shared again after a clear");
  }

  static final class Named {
    public String namespace;
  }
}
