package dev.capstan.cli.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.cli.CliRun;
import dev.capstan.testing.S3Server;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The Flux objects {@link MigrateFluxIT} migrates, made as a Flux user makes them. */
final class FluxFleetObjects {
  private final KubernetesClient client;
  private final String ns;
  private final String selector;

  FluxFleetObjects(KubernetesClient client, String ns, String selector) {
    this.client = client;
    this.ns = ns;
    this.selector = selector;
  }

  /**
   * Flux's GitRepository and its chain of Kustomizations, an OCIRepository and a Bucket with one
   * Kustomization each.
   */
  void create(String gitUrl, List<String> kustomizations, String ociUrl, String s3Endpoint) {
    GenericKubernetesResource repository =
        object(
            "source.toolkit.fluxcd.io/v1",
            "GitRepository",
            "fleet",
            Map.of("url", gitUrl, "ref", Map.of("branch", "main"), "interval", "1m"));
    client.resource(repository).create();
    String previous = null;
    for (String name : kustomizations) {
      Map<String, Object> spec = new TreeMap<>();
      spec.put("interval", "10m");
      spec.put("sourceRef", Map.of("kind", "GitRepository", "name", "fleet"));
      spec.put(
          "path",
          name.equals("apps") ? "./apps/production" : "./infrastructure/" + name.substring(6));
      spec.put("prune", true);
      spec.put("targetNamespace", ns);
      if (previous != null) {
        spec.put("dependsOn", List.of(Map.of("name", previous)));
      }
      client
          .resource(object("kustomize.toolkit.fluxcd.io/v1", "Kustomization", name, spec))
          .create();
      previous = name;
    }
    client
        .resource(
            object(
                "source.toolkit.fluxcd.io/v1",
                "OCIRepository",
                "tools",
                Map.of(
                    "url",
                    ociUrl,
                    "ref",
                    Map.of("tag", "latest"),
                    "insecure",
                    true,
                    "interval",
                    "10m")))
        .create();
    client
        .secrets()
        .inNamespace(ns)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("s3-credentials")
                .endMetadata()
                .withStringData(
                    Map.of("accesskey", S3Server.ACCESS_KEY, "secretkey", S3Server.SECRET_KEY))
                .build())
        .create();
    client
        .resource(
            object(
                "source.toolkit.fluxcd.io/v1",
                "Bucket",
                "settings",
                Map.of(
                    "bucketName", "settings",
                    "endpoint", s3Endpoint,
                    "insecure", true,
                    "provider", "generic",
                    "region", "us-east-1",
                    "secretRef", Map.of("name", "s3-credentials"),
                    "interval", "10m")))
        .create();
    for (String name : List.of("tools", "settings")) {
      String kind = name.equals("tools") ? "OCIRepository" : "Bucket";
      client
          .resource(
              object(
                  "kustomize.toolkit.fluxcd.io/v1",
                  "Kustomization",
                  name,
                  Map.of(
                      "interval",
                      "10m",
                      "sourceRef",
                      Map.of("kind", kind, "name", name),
                      "path",
                      "./",
                      "prune",
                      true,
                      "targetNamespace",
                      ns)))
          .create();
    }
  }

  /** Pushes the tools artifact (one ConfigMap) as {@code capstan push artifact} does. */
  static void pushTools(String url, Path dir) throws Exception {
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("tools.yaml"), FleetRepository.configMap("tools-config", "linter: strict"));
    CliRun pushed =
        CliRun.run(
            "push",
            "artifact",
            url + ":latest",
            "--path",
            dir.toString(),
            "--source",
            "https://git.example.com/tools",
            "--revision",
            "main@sha1:5e1f",
            "--insecure-registry");
    assertEquals(0, pushed.exitCode(), pushed::toString);
  }

  private GenericKubernetesResource object(
      String apiVersion, String kind, String name, Map<String, Object> spec) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion(apiVersion);
    object.setKind(kind);
    object.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(ns)
            .withLabels(Map.of(selector, ns))
            .build());
    object.setAdditionalProperty("spec", spec);
    return object;
  }
}
