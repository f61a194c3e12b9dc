package dev.capstan.cli.bootstrap;

import dev.capstan.cli.install.InstallCleanup;
import dev.capstan.engine.Engine;
import dev.capstan.engine.EngineOptions;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.Finalizers;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.StoredConfig;

/**
 * An engine in the test's JVM that reconciles only what a bootstrap into {@code namespace} labels
 * as its own, a bare repository that takes pushes, and the cleanup that keeps the CRDs.
 */
final class BootstrapFixture implements AutoCloseable {
  final KubernetesClient client;
  final String namespace;
  private final Engine engine;

  BootstrapFixture(KubernetesClient client, String namespace, Path artifacts) throws IOException {
    this.client = client;
    this.namespace = namespace;
    CapstanCrds.install(client);
    engine =
        new Engine(
            EngineOptions.defaults(Files.createDirectories(artifacts))
                .withWatchLabelSelector(Optional.of("kustomize.capstan.dev/namespace=" + namespace))
                .withWaitPoll(Duration.ofSeconds(1)),
            client,
            List.of());
    engine.start();
  }

  /** An empty bare repository whose branch main takes unauthenticated pushes over http. */
  static void bareRepository(Path dir) throws GitAPIException, IOException {
    try (Git git =
        Git.init().setBare(true).setInitialBranch("main").setDirectory(dir.toFile()).call()) {
      StoredConfig config = git.getRepository().getConfig();
      config.setBoolean("http", null, "receivepack", true);
      config.save();
    }
  }

  Resource<GenericKubernetesResource> kustomization() {
    return client
        .genericKubernetesResources("kustomize.capstan.dev/v1", "Kustomization")
        .inNamespace(namespace)
        .withName(namespace);
  }

  Resource<GenericKubernetesResource> gitRepository() {
    return client
        .genericKubernetesResources("source.capstan.dev/v1", "GitRepository")
        .inNamespace(namespace)
        .withName(namespace);
  }

  static Map<?, ?> status(GenericKubernetesResource object) {
    Object status = object.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> map ? map : Map.of();
  }

  static String ready(GenericKubernetesResource object) {
    if (status(object).get("conditions") instanceof List<?> conditions) {
      for (Object condition : conditions) {
        if (condition instanceof Map<?, ?> map && "Ready".equals(map.get("type"))) {
          return String.valueOf(map.get("status"));
        }
      }
    }
    return "none";
  }

  /**
   * Stops the engine first: the Kustomization prunes what it applied, the CRDs included, so it must
   * not see its own deletion. Then lets the two objects go without it.
   */
  @Override
  public void close() {
    engine.close();
    for (Resource<GenericKubernetesResource> object : List.of(kustomization(), gitRepository())) {
      if (object.get() != null) {
        Finalizers.clear(object);
        object.delete();
      }
    }
    InstallCleanup.removeClusterWide(client);
  }
}
