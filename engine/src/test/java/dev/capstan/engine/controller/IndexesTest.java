package dev.capstan.engine.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.kustomize.Kustomization;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ConfigMaps and Secrets a Kustomization reads, by which their changes find it. */
class IndexesTest {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void substituteFromTheDecryptionSecretAndTheKubeConfigAreIndexedInItsNamespace() {
    Kustomization ks =
        YAML.unmarshal(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata: {name: app, namespace: team}
            spec:
              sourceRef: {kind: GitRepository, name: repo, namespace: shared}
              interval: 5m
              prune: true
              postBuild:
                substituteFrom:
                - {kind: ConfigMap, name: vars}
                - {kind: Secret, name: secret-vars, optional: true}
                - {kind: ConfigMap, name: vars}
              decryption: {provider: sops, secretRef: {name: sops-keys}}
              kubeConfig: {secretRef: {name: remote}}
            """,
            Kustomization.class);

    assertEquals(
        List.of(
            "ConfigMap/team/vars",
            "Secret/team/secret-vars",
            "Secret/team/sops-keys",
            "Secret/team/remote"),
        Indexes.configsOf(ks));
  }

  @Test
  void aKubeConfigMapForTokenAccessIsIndexedAndNothingIsWithoutASpec() {
    Kustomization ks =
        YAML.unmarshal(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata: {name: app, namespace: team}
            spec:
              sourceRef: {kind: GitRepository, name: repo}
              interval: 5m
              prune: true
              decryption: {provider: sops}
              kubeConfig: {configMapRef: {name: remote-access}}
            """,
            Kustomization.class);

    assertEquals(List.of("ConfigMap/team/remote-access"), Indexes.configsOf(ks));
    ks.setSpec(null);
    assertEquals(List.of(), Indexes.configsOf(ks));
  }
}
