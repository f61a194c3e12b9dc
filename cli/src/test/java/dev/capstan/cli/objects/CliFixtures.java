package dev.capstan.cli.objects;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.function.UnaryOperator;

/** Kustomizations and GitRepositories created in a test namespace from YAML. */
final class CliFixtures {
  private final KubernetesClient client;
  private final String namespace;

  CliFixtures(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  Kustomization kustomization(String name, String extraSpec) {
    String yaml =
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: %s}
        spec:
          interval: 10m
          prune: true
          sourceRef: {kind: GitRepository, name: repo}
        %s\
        """
            .formatted(name, extraSpec.indent(2));
    return client
        .resources(Kustomization.class)
        .inNamespace(namespace)
        .resource(TestObjects.read(yaml, Kustomization.class))
        .create();
  }

  GitRepository gitRepository(String name) {
    String yaml =
        """
        apiVersion: source.capstan.dev/v1
        kind: GitRepository
        metadata: {name: %s}
        spec: {url: "http://127.0.0.1:9418/demo.git", interval: 1m, ref: {branch: main}}
        """
            .formatted(name);
    return client
        .resources(GitRepository.class)
        .inNamespace(namespace)
        .resource(TestObjects.read(yaml, GitRepository.class))
        .create();
  }

  Kustomization setStatus(String name, UnaryOperator<KustomizationStatus> status) {
    return client
        .resources(Kustomization.class)
        .inNamespace(namespace)
        .withName(name)
        .editStatus(
            k -> {
              k.setStatus(status.apply(k.getStatus()));
              return k;
            });
  }

  Kustomization get(String name) {
    return client.resources(Kustomization.class).inNamespace(namespace).withName(name).get();
  }
}
