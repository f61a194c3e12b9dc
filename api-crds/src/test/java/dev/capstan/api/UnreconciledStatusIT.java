package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An object no controller has reconciled yet reads as in progress to any kstatus reader (Flux's
 * health checks, Argo CD, {@code kstatus} in a script), as Flux's do: the CRDs default {@code
 * status.observedGeneration} to -1. Without it the object has no status, and kstatus calls a custom
 * resource without conditions Current.
 */
@ExtendWith(KubernetesCluster.class)
class UnreconciledStatusIT {
  private static final HealthEvaluator KSTATUS = HealthEvaluator.create(List.of(), false);

  @BeforeAll
  static void installCrds(KubernetesClient client) {
    CapstanCrds.install(client);
  }

  @Test
  void aFreshKustomizationIsInProgress(KubernetesClient client, TestNamespace ns) {
    assertFreshObjectInProgress(
        client,
        object(
            ns,
            "kustomize.capstan.dev/v1",
            "Kustomization",
            Map.of(
                "interval",
                "5m",
                "prune",
                true,
                "sourceRef",
                Map.of("kind", "GitRepository", "name", "repo"))));
  }

  @Test
  void aFreshGitRepositoryIsInProgress(KubernetesClient client, TestNamespace ns) {
    assertFreshObjectInProgress(
        client,
        object(
            ns,
            "source.capstan.dev/v1",
            "GitRepository",
            Map.of("interval", "5m", "url", "https://example.com/repo.git")));
  }

  @Test
  void aFreshOciRepositoryIsInProgress(KubernetesClient client, TestNamespace ns) {
    assertFreshObjectInProgress(
        client,
        object(
            ns,
            "source.capstan.dev/v1",
            "OCIRepository",
            Map.of("interval", "5m", "url", "oci://example.com/manifests")));
  }

  @Test
  void aFreshHelmRepositoryIsInProgress(KubernetesClient client, TestNamespace ns) {
    assertFreshObjectInProgress(
        client,
        object(
            ns,
            "source.capstan.dev/v1",
            "HelmRepository",
            Map.of("interval", "5m", "url", "https://charts.example.com")));
  }

  @Test
  void aFreshBucketIsInProgress(KubernetesClient client, TestNamespace ns) {
    assertFreshObjectInProgress(
        client,
        object(
            ns,
            "source.capstan.dev/v1",
            "Bucket",
            Map.of("interval", "5m", "endpoint", "minio.example.com", "bucketName", "example")));
  }

  private static void assertFreshObjectInProgress(
      KubernetesClient client, GenericKubernetesResource object) {
    GenericKubernetesResource created = client.resource(object).create();
    assertEquals(
        Map.of("observedGeneration", -1),
        created.getAdditionalProperties().get("status"),
        "status of a fresh " + object.getKind());
    ResourceStatus health = KSTATUS.status(created);
    assertEquals(Status.InProgress, health.status(), object.getKind() + ": " + health);
  }

  private static GenericKubernetesResource object(
      TestNamespace ns, String apiVersion, String kind, Map<String, Object> spec) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion(apiVersion);
    resource.setKind(kind);
    resource.setMetadata(
        new ObjectMetaBuilder().withName("fresh").withNamespace(ns.name()).build());
    resource.getAdditionalProperties().put("spec", spec);
    return resource;
  }

  @Test
  void aFreshHelmChartIsInProgress(KubernetesClient client, TestNamespace ns) {
    assertFreshObjectInProgress(
        client,
        object(
            ns,
            "source.capstan.dev/v1",
            "HelmChart",
            Map.of(
                "interval",
                "5m",
                "chart",
                "podinfo",
                "sourceRef",
                Map.of("kind", "HelmRepository", "name", "charts"))));
  }

  @Test
  void aFreshHelmReleaseIsInProgress(KubernetesClient client, TestNamespace ns) {
    assertFreshObjectInProgress(
        client,
        object(
            ns,
            "helm.capstan.dev/v2",
            "HelmRelease",
            Map.of(
                "interval", "5m", "chartRef", Map.of("kind", "OCIRepository", "name", "podinfo"))));
  }
}
