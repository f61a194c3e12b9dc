package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.TestObjects;
import dev.capstan.applier.common.Owner;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FieldOwnershipTest {

  private static final ResourceType DEPLOYMENT =
      new ResourceType("apps", "v1", "Deployment", "deployments", true);

  private final DesiredObject desired =
      DesiredObject.prepare(
          TestObjects.yaml(
              """
              apiVersion: apps/v1
              kind: Deployment
              metadata: {name: web, namespace: shop}
              spec:
                replicas: 2
                selector: {matchLabels: {app: web}}
                template:
                  spec:
                    containers: [{name: app, image: nginx:1}]
              """),
          DEPLOYMENT,
          new Owner("k", "ns"),
          "shop");

  /** A live object as the API server returns it after Capstan applied {@link #desired}. */
  private GenericKubernetesResource live(String digest, String extraManagers) {
    return TestObjects.yaml(
        """
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: web
          namespace: shop
          labels: {kustomize.capstan.dev/name: k, kustomize.capstan.dev/namespace: ns}
          annotations: {capstan.dev/applied-digest: "%s", deployment.kubernetes.io/revision: "1"}
          managedFields:
          - manager: capstan
            operation: Apply
            apiVersion: apps/v1
            fieldsType: FieldsV1
            fieldsV1:
              f:metadata:
                f:annotations: {f:capstan.dev/applied-digest: {}}
                f:labels: {f:kustomize.capstan.dev/name: {}, f:kustomize.capstan.dev/namespace: {}}
              f:spec:
                f:replicas: {}
                f:selector: {}
                f:template:
                  f:spec:
                    f:containers:
                      k:{"name":"app"}:
                        .: {}
                        f:image: {}
                        f:name: {}
          - manager: kube-controller-manager
            operation: Update
            apiVersion: apps/v1
            fieldsType: FieldsV1
            fieldsV1:
              f:metadata:
                f:annotations: {.: {}, f:deployment.kubernetes.io/revision: {}}
          - manager: kube-controller-manager
            operation: Update
            subresource: status
            apiVersion: apps/v1
            fieldsType: FieldsV1
            fieldsV1:
              f:status: {f:replicas: {}}
        %s
        spec: {replicas: 2}
        """
            .formatted(digest, extraManagers));
  }

  @Test
  void unchangedWhenDigestMatchesAndOwnershipIsIntact() {
    assertTrue(FieldOwnership.isUnchanged(live(desired.digest(), ""), desired));
  }

  @Test
  void changedWhenDigestDiffersOrObjectIsMissing() {
    assertFalse(FieldOwnership.isUnchanged(live("sha256:other", ""), desired));
    assertFalse(FieldOwnership.isUnchanged(null, desired));
  }

  @Test
  void changedWhenAnotherManagerTookAFieldWeApply() {
    var edited = live(desired.digest(), "");
    var entry =
        new ManagedFieldsEntryBuilder()
            .withManager("kubectl-edit")
            .withOperation("Update")
            .withApiVersion("apps/v1")
            .withFieldsType("FieldsV1")
            .withNewFieldsV1()
            .addToAdditionalProperties("f:spec", Map.of("f:replicas", Map.of()))
            .endFieldsV1()
            .build();
    edited.getMetadata().getManagedFields().add(entry);
    assertFalse(FieldOwnership.isUnchanged(edited, desired));
  }

  @Test
  void changedWhenOurEntryLostAField() {
    var lost = live(desired.digest(), "");
    var ours = lost.getMetadata().getManagedFields().get(0).getFieldsV1().getAdditionalProperties();
    ((Map<?, ?>) ours.get("f:spec")).remove("f:replicas");
    assertFalse(FieldOwnership.isUnchanged(lost, desired));
  }

  @Test
  void pathsAreCutAtLists() {
    Set<List<String>> paths = FieldOwnership.desiredPaths(DesiredObject.asMap(desired.object()));
    assertTrue(paths.contains(List.of("spec", "template", "spec", "containers")));
    assertTrue(paths.contains(List.of("spec", "replicas")));
    assertFalse(paths.contains(List.of("metadata", "name")));
    var ours =
        FieldOwnership.managedPaths(
            live(desired.digest(), "").getMetadata().getManagedFields().get(0));
    assertTrue(ours.contains(List.of("spec", "template", "spec", "containers")));
    assertEquals(6, ours.size(), ours.toString());
    assertTrue(ours.contains(List.of("spec", "selector")), "atomic map owned as one field");
  }
}
