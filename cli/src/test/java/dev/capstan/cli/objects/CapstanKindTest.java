package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.cli.cluster.CliException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapstanKindTest {

  @Test
  void acceptsShortLongAndQualifiedNames() {
    for (String name :
        new String[] {
          "ks", "KS", "kustomization", "kustomizations", "kustomizations.kustomize.capstan.dev"
        }) {
      assertSame(CapstanKind.KUSTOMIZATION, CapstanKind.parse(name), name);
    }
    for (String name :
        new String[] {
          "gitrepo", "gitrepository", "gitrepositories", "gitrepositories.source.capstan.dev"
        }) {
      assertSame(CapstanKind.GIT_REPOSITORY, CapstanKind.parse(name), name);
    }
    for (String name :
        new String[] {
          "ocirepo", "ocirepository", "OCIRepositories", "ocirepositories.source.capstan.dev"
        }) {
      assertSame(CapstanKind.OCI_REPOSITORY, CapstanKind.parse(name), name);
    }
    for (String name :
        new String[] {
          "helmrepo", "HelmRepository", "helmrepositories", "helmrepositories.source.capstan.dev"
        }) {
      assertSame(CapstanKind.HELM_REPOSITORY, CapstanKind.parse(name), name);
    }
    for (String name : new String[] {"bucket", "Buckets", "buckets.source.capstan.dev"}) {
      assertSame(CapstanKind.BUCKET, CapstanKind.parse(name), name);
    }
  }

  @Test
  void readsAHelmRepositorysStatusWithItsTypeAndNoPasswordInItsUrl() {
    HelmRepository repo =
        TestObjects.read(
            """
            apiVersion: source.capstan.dev/v1
            kind: HelmRepository
            metadata: {name: charts, namespace: demo, generation: 2, creationTimestamp: "2026-01-01T00:00:00Z"}
            spec: {url: "https://user:hunter2@charts.example.com/stable", interval: 10m}
            status:
              observedGeneration: 2
              artifact:
                revision: sha256:0123
                digest: sha256:0123
                path: /store
              conditions:
              - {type: Ready, status: "True", reason: Succeeded, message: stored,
                 lastTransitionTime: "2026-01-01T00:01:00Z"}
            """,
            HelmRepository.class);
    ResourceView view = CapstanKind.HELM_REPOSITORY.view(repo);
    assertEquals("HelmRepository/demo/charts", view.display());
    assertEquals("sha256:0123", view.revision());
    assertFalse(view.url().contains("hunter2"), view.url());
    assertTrue(view.wide().contains(new ResourceView.Column("TYPE", "default")));
    HelmRepository registry =
        TestObjects.read(
            """
            apiVersion: source.capstan.dev/v1
            kind: HelmRepository
            metadata: {name: oci, namespace: demo}
            spec: {type: oci, url: "oci://ghcr.io/org/charts"}
            """,
            HelmRepository.class);
    ResourceView oci = CapstanKind.HELM_REPOSITORY.view(registry);
    assertTrue(oci.wide().contains(new ResourceView.Column("TYPE", "oci")));
    assertEquals("", oci.revision(), "an OCI chart registry stores no artifact");
  }

  @Test
  void readsAnOciRepositorysStatusWithItsOrigin() {
    OCIRepository repo =
        TestObjects.read(
            """
            apiVersion: source.capstan.dev/v1
            kind: OCIRepository
            metadata: {name: app, namespace: demo, generation: 1, creationTimestamp: "2026-01-01T00:00:00Z"}
            spec: {url: "oci://ghcr.io/org/app", interval: 5m}
            status:
              observedGeneration: 1
              artifact:
                revision: latest@sha256:abcd
                digest: sha256:ef
                path: /store
                metadata: {org.opencontainers.image.revision: "main@sha1:1234"}
              conditions:
              - {type: Ready, status: "True", reason: Succeeded, message: stored,
                 lastTransitionTime: "2026-01-01T00:01:00Z"}
            """,
            OCIRepository.class);
    ResourceView view = CapstanKind.OCI_REPOSITORY.view(repo);
    assertEquals("OCIRepository/demo/app", view.display());
    assertEquals("latest@sha256:abcd", view.revision());
    assertEquals("oci://ghcr.io/org/app", view.url());
    assertTrue(view.wide().contains(new ResourceView.Column("ORIGIN", "main@sha1:1234")));
  }

  @Test
  void readsAHelmChartWithItsChartAndSource() {
    for (String name : List.of("hc", "HelmChart", "helmcharts", "helmcharts.source.capstan.dev")) {
      assertSame(CapstanKind.HELM_CHART, CapstanKind.parse(name), name);
    }
    HelmChart chart =
        TestObjects.read(
            """
            apiVersion: source.capstan.dev/v1
            kind: HelmChart
            metadata: {name: podinfo, namespace: demo, generation: 1}
            spec:
              chart: podinfo
              sourceRef: {kind: HelmRepository, name: charts}
              interval: 5m
            status:
              observedGeneration: 1
              artifact: {revision: 6.5.4, digest: "sha256:abcd", path: /store}
              conditions:
              - {type: Ready, status: "True", reason: Succeeded, message: stored,
                 lastTransitionTime: "2026-01-01T00:01:00Z"}
            """,
            HelmChart.class);
    ResourceView view = CapstanKind.HELM_CHART.view(chart);
    assertEquals("HelmChart/demo/podinfo", view.display());
    assertEquals("6.5.4", view.revision());
    assertEquals("", view.url());
    assertTrue(view.wide().contains(new ResourceView.Column("CHART", "podinfo")));
    assertTrue(view.wide().contains(new ResourceView.Column("SOURCE", "HelmRepository/charts")));
  }

  @Test
  void readsAHelmReleaseWithItsChartAndLatestRelease() {
    for (String name :
        List.of("hr", "HelmRelease", "helmreleases", "helmreleases.helm.capstan.dev")) {
      assertSame(CapstanKind.HELM_RELEASE, CapstanKind.parse(name), name);
    }
    HelmRelease release =
        TestObjects.read(
            """
            apiVersion: helm.capstan.dev/v2
            kind: HelmRelease
            metadata: {name: podinfo, namespace: demo, generation: 2}
            spec:
              interval: 5m
              chart:
                spec:
                  chart: podinfo
                  sourceRef: {kind: HelmRepository, name: charts}
            status:
              observedGeneration: 2
              history:
              - {digest: "sha256:ab", name: podinfo, namespace: demo, version: 2, status: deployed,
                 chartName: podinfo, chartVersion: 6.5.4, configDigest: "sha256:cd",
                 firstDeployed: "2026-01-01T00:00:00Z", lastDeployed: "2026-01-01T00:01:00Z"}
              conditions:
              - {type: Ready, status: "True", reason: UpgradeSucceeded, message: upgraded,
                 lastTransitionTime: "2026-01-01T00:01:00Z"}
            """,
            HelmRelease.class);
    ResourceView view = CapstanKind.HELM_RELEASE.view(release);
    assertEquals("HelmRelease/demo/podinfo", view.display());
    assertEquals("6.5.4", view.revision());
    assertTrue(view.wide().contains(new ResourceView.Column("CHART", "podinfo")));
    assertTrue(view.wide().contains(new ResourceView.Column("RELEASE", "demo/podinfo.v2")));
  }

  @Test
  void anUnknownKindIsBadInputNamingIt() {
    CliException e = assertThrows(CliException.class, () -> CapstanKind.parse("receiver"));
    assertEquals(CliException.BAD_INPUT, e.exitCode());
    assertTrue(e.getMessage().contains("'receiver'"), e.getMessage());
  }

  @Test
  void readsAKustomizationsStatus() {
    Kustomization ks =
        TestObjects.read(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata: {name: app, namespace: demo, generation: 3, creationTimestamp: "2026-01-01T00:00:00Z"}
            spec: {interval: 1m, prune: true, suspend: true, sourceRef: {kind: GitRepository, name: repo}}
            status:
              observedGeneration: 2
              lastAppliedRevision: main@sha1:1234
              lastHandledReconcileAt: "2026-01-01T00:01:00Z"
              conditions:
              - {type: Ready, status: "True", reason: ReconciliationSucceeded, message: ok,
                 lastTransitionTime: "2026-01-01T00:01:00Z"}
            """,
            Kustomization.class);
    ResourceView view = CapstanKind.KUSTOMIZATION.view(ks);
    assertEquals("Kustomization/demo/app", view.display());
    assertEquals(3, view.generation());
    assertEquals(2L, view.observedGeneration());
    assertEquals("main@sha1:1234", view.revision());
    assertEquals("2026-01-01T00:01:00Z", view.lastHandledReconcileAt());
    assertEquals("True", view.conditionStatus("Ready"));
    assertEquals("", view.conditionStatus("Healthy"));
    assertTrue(view.suspended());
  }

  @Test
  void theUrlOfAGitRepositoryIsShownWithoutItsUserInfo() {
    GitRepository repo =
        TestObjects.read(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: repo, namespace: demo}
            spec: {url: "https://alice:p@s/s S3CRET@git.example/org/repo.git", interval: 1m}
            """,
            GitRepository.class);
    assertEquals("https://git.example/org/repo.git", CapstanKind.GIT_REPOSITORY.view(repo).url());
  }

  @Test
  void readsAGitRepositoryWithoutStatus() {
    GitRepository repo =
        TestObjects.read(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: repo, namespace: demo}
            spec: {url: "https://127.0.0.1/demo.git", interval: 1m}
            """,
            GitRepository.class);
    ResourceView view = CapstanKind.GIT_REPOSITORY.view(repo);
    assertEquals("https://127.0.0.1/demo.git", view.url());
    assertEquals("", view.revision());
    assertEquals(0, view.generation());
    assertTrue(view.conditions().isEmpty());
  }

  @Test
  void wideColumnsNameDependenciesTheRemoteClusterDecryptionAndDrift() {
    Kustomization ks =
        TestObjects.read(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata: {name: app, namespace: demo, labels: {shards.capstan.dev/replica: capstan-1}}
            spec:
              interval: 1m
              prune: true
              sourceRef: {kind: GitRepository, name: repo}
              dependsOn: [{name: infra}, {name: base, namespace: shared}, {apiVersion: apps/v1, kind: Deployment, name: db}]
              kubeConfig: {secretRef: {name: prod}}
              decryption: {provider: sops, secretRef: {name: keys}}
              driftDetection: {mode: warn}
            status:
              conditions:
              - {type: Drifted, status: "True", reason: DriftDetected, message: "1 object drifted"}
            """,
            Kustomization.class);

    assertEquals(
        List.of(
            new ResourceView.Column("DEPENDS-ON", "infra,shared/base,apps/v1/Deployment/demo/db"),
            new ResourceView.Column("KUBECONFIG", "secret/prod"),
            new ResourceView.Column("DECRYPTION", "sops"),
            new ResourceView.Column("DRIFTED", "True"),
            new ResourceView.Column("REPLICA", "capstan-1"),
            new ResourceView.Column("HISTORY", "")),
        CapstanKind.KUSTOMIZATION.view(ks).wide());
  }

  @Test
  void wideColumnsOfAGitRepositorySayWhetherItIsVerifiedAndWhatItIncludes() {
    GitRepository repo =
        TestObjects.read(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: app, namespace: demo}
            spec:
              url: https://example.com/app.git
              interval: 1m
              include: [{repository: {name: shared}}, {repository: {name: tools}, toPath: tools}]
            status:
              conditions:
              - {type: SourceVerified, status: "True", reason: Succeeded, message: ok, lastTransitionTime: "2026-01-01T00:00:00Z"}
            """,
            GitRepository.class);

    assertEquals(
        List.of(
            new ResourceView.Column("VERIFIED", "True"),
            new ResourceView.Column("INCLUDES", "shared,tools")),
        CapstanKind.GIT_REPOSITORY.view(repo).wide());
  }
}
