package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.ChartReference;
import dev.capstan.api.helm.CrdsPolicy;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.Uninstall;
import dev.capstan.api.helm.UpgradeRemediation;
import dev.capstan.api.helm.ValuesReference;
import dev.capstan.api.kustomize.DeletionPolicy;
import dev.capstan.api.kustomize.DriftDetection;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.BucketSTSSpec;
import dev.capstan.api.source.BucketSpec;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositorySpec;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSourceReference;
import dev.capstan.api.source.HelmChartSpec;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.HelmRepositorySpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Java types read and write the same YAML a Flux user writes, with Flux's defaults. */
class SerializationTest {
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  @Test
  void readsAFluxStyleKustomization() {
    Kustomization ks =
        serialization.unmarshal(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata: {name: apps, namespace: flux-system}
            spec:
              interval: 10m
              path: ./apps
              prune: true
              wait: true
              sourceRef: {kind: GitRepository, name: fleet}
              dependsOn: [{name: infra}, {apiVersion: apps/v1, kind: Deployment, name: db, namespace: data}]
              healthCheckExprs:
              - apiVersion: example.com/v1
                kind: Widget
                current: status.ready == true
              postBuild:
                substitute: {cluster: prod}
                substituteFrom: [{kind: Secret, name: vars, optional: true}]
            """,
            Kustomization.class);

    assertTrue(ks.getSpec().waitEnabled());
    assertTrue(ks.getSpec().pruneEnabled());
    assertFalse(ks.getSpec().suspended());
    assertEquals(DeletionPolicy.MirrorPrune, ks.getSpec().effectiveDeletionPolicy());
    assertEquals("infra", ks.getSpec().dependsOn().get(0).name());
    assertEquals(null, ks.getSpec().dependsOn().get(0).kind());
    assertEquals("apps/v1", ks.getSpec().dependsOn().get(1).apiVersion());
    assertEquals("Deployment", ks.getSpec().dependsOn().get(1).kind());
    assertEquals("status.ready == true", ks.getSpec().healthCheckExprs().get(0).current());
    assertEquals(true, ks.getSpec().postBuild().substituteFrom().get(0).optional());
    assertTrue(serialization.asYaml(ks).contains("wait: true"));
  }

  @Test
  void readsAFluxStyleGitRepository() {
    GitRepository repo =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: fleet}
            spec:
              url: ssh://git@example.com/org/fleet.git
              interval: 1m
              ref: {semver: ">=1.0.0 <2.0.0"}
              secretRef: {name: deploy-key}
              ignore: |
                /docs
            """,
            GitRepository.class);

    assertEquals(">=1.0.0 <2.0.0", repo.getSpec().ref().semver());
    assertEquals("deploy-key", repo.getSpec().secretRef().name());
    assertFalse(repo.getSpec().suspended());
  }

  @Test
  void readsAGitRepositorysProviderAndTakesGenericWhenItIsAbsent() {
    GitRepository app =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: fleet}
            spec:
              url: https://github.com/org/fleet
              interval: 1m
              provider: github
              secretRef: {name: github-app}
            """,
            GitRepository.class);
    GitRepository azure =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: fleet}
            spec:
              url: https://dev.azure.com/org/project/_git/fleet
              interval: 1m
              provider: azure
              serviceAccountName: reader
            """,
            GitRepository.class);
    GitRepository plain =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: fleet}
            spec: {url: "https://github.com/org/fleet", interval: 1m}
            """,
            GitRepository.class);

    assertEquals(GitRepositorySpec.Provider.github, app.getSpec().effectiveProvider());
    assertEquals(GitRepositorySpec.Provider.azure, azure.getSpec().provider());
    assertEquals("reader", azure.getSpec().serviceAccountName());
    assertEquals(null, plain.getSpec().provider());
    assertEquals(GitRepositorySpec.Provider.generic, plain.getSpec().effectiveProvider());
    GitRepository again = serialization.unmarshal(serialization.asYaml(app), GitRepository.class);
    assertEquals(GitRepositorySpec.Provider.github, again.getSpec().provider());
  }

  @Test
  void readsFluxsHelmRepositoriesOfBothTypes() {
    HelmRepository index =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: HelmRepository
            metadata: {name: podinfo}
            spec:
              url: https://stefanprodan.github.io/podinfo
              interval: 5m0s
              secretRef: {name: basic-auth}
              passCredentials: true
              accessFrom:
                namespaceSelectors:
                - matchLabels: {team: apps}
            """,
            HelmRepository.class);
    HelmRepository registry =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: HelmRepository
            metadata: {name: podinfo-oci}
            spec: {type: oci, url: "oci://ghcr.io/stefanprodan/charts", provider: aws}
            """,
            HelmRepository.class);

    assertFalse(index.getSpec().oci());
    assertTrue(index.getSpec().credentialsPassed());
    assertEquals(HelmRepositorySpec.Provider.generic, index.getSpec().effectiveProvider());
    assertEquals(
        "apps", index.getSpec().accessFrom().namespaceSelectors().get(0).matchLabels().get("team"));
    assertTrue(registry.getSpec().oci());
    assertEquals(HelmRepositorySpec.Provider.aws, registry.getSpec().effectiveProvider());
    assertTrue(serialization.asYaml(registry).contains("aws"));
  }

  @Test
  void readsFluxsBucketExamples() {
    Bucket minio =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: Bucket
            metadata: {name: minio-bucket, namespace: default}
            spec:
              interval: 5m0s
              endpoint: minio.example.com
              insecure: true
              secretRef:
                name: minio-bucket-secret
              bucketName: example
            """,
            Bucket.class);
    Bucket ldap =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: Bucket
            metadata: {name: example}
            spec:
              interval: 5m0s
              bucketName: example
              provider: generic
              endpoint: minio.example.com
              sts:
                provider: ldap
                endpoint: https://minio.example.com
                secretRef: {name: ldap-credentials}
              prefix: apps/
              ignore: "*.md"
            """,
            Bucket.class);

    assertEquals(BucketSpec.Provider.generic, minio.getSpec().effectiveProvider());
    assertTrue(minio.getSpec().insecureAllowed());
    assertEquals("minio-bucket-secret", minio.getSpec().secretRef().name());
    assertEquals("example", minio.getSpec().bucketName());
    assertEquals("5m0s", minio.getSpec().interval());
    assertEquals(BucketSTSSpec.Provider.ldap, ldap.getSpec().sts().provider());
    assertEquals("ldap-credentials", ldap.getSpec().sts().secretRef().name());
    assertEquals("apps/", ldap.getSpec().prefix());
    Bucket again = serialization.unmarshal(serialization.asYaml(ldap), Bucket.class);
    assertEquals(ldap.getSpec(), again.getSpec());
  }

  @Test
  void readsFluxsHelmChartsWithTheirDefaults() {
    HelmChart fromRepo =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: HelmChart
            metadata: {name: podinfo}
            spec:
              chart: podinfo
              sourceRef: {kind: HelmRepository, name: podinfo}
              interval: 5m
              valuesFile: values.yaml
              valuesFiles: [values-prod.yaml]
              ignoreMissingValuesFiles: true
            """,
            HelmChart.class);
    HelmChart fromGit =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: HelmChart
            metadata: {name: local}
            spec:
              chart: ./charts/app
              version: "1.x"
              sourceRef: {kind: GitRepository, name: repo}
              interval: 1m
              reconcileStrategy: Revision
              verify: {provider: cosign, secretRef: {name: keys}}
            """,
            HelmChart.class);

    HelmChartSpec repo = fromRepo.getSpec();
    assertEquals(HelmChartSourceReference.Kind.HelmRepository, repo.sourceRef().kind());
    assertEquals("*", repo.effectiveVersion());
    assertEquals(HelmChartSpec.ReconcileStrategy.ChartVersion, repo.effectiveStrategy());
    assertEquals(List.of("values.yaml", "values-prod.yaml"), repo.allValuesFiles());
    assertTrue(repo.missingValuesFilesIgnored());
    assertEquals(null, repo.timeout());
    HelmChartSpec git = fromGit.getSpec();
    assertEquals(HelmChartSourceReference.Kind.GitRepository, git.sourceRef().kind());
    assertEquals(HelmChartSpec.ReconcileStrategy.Revision, git.effectiveStrategy());
    assertEquals("1.x", git.effectiveVersion());
    assertEquals("keys", git.verify().secretRef().name());
    assertTrue(serialization.asYaml(fromGit).contains("Revision"));
  }

  @Test
  void readsFluxsHelmReleasesWithTheirDefaults() {
    HelmRelease release =
        serialization.unmarshal(
            """
            apiVersion: helm.capstan.dev/v2
            kind: HelmRelease
            metadata: {name: podinfo, namespace: apps}
            spec:
              interval: 10m
              targetNamespace: web
              chart:
                spec:
                  chart: podinfo
                  version: "6.x"
                  sourceRef: {kind: HelmRepository, name: podinfo, namespace: flux-system}
              values:
                replicaCount: 2
                ingress: {enabled: true, hosts: [{host: a.example}]}
              valuesFrom:
                - {kind: ConfigMap, name: extra, targetPath: image.tag, optional: true}
                - {kind: Secret, name: creds}
              upgrade:
                remediation: {retries: 3}
              dependsOn:
                - name: redis
                - {apiVersion: apps/v1, kind: Deployment, name: db}
            """,
            HelmRelease.class);

    HelmReleaseSpec spec = release.getSpec();
    assertEquals("web-podinfo", release.releaseName());
    assertEquals("web", release.releaseNamespace());
    assertEquals("apps", release.storageNamespace());
    assertEquals("apps-podinfo", release.helmChartName());
    assertEquals(
        HelmChartSourceReference.Kind.HelmRepository, spec.chart().spec().sourceRef().kind());
    assertEquals("flux-system", spec.chart().spec().sourceRef().namespace());
    assertEquals(2, spec.values().get("replicaCount").asInt());
    assertEquals("a.example", spec.values().at("/ingress/hosts/0/host").asText());
    assertEquals(ValuesReference.Kind.ConfigMap, spec.valuesFrom().get(0).kind());
    assertEquals("values.yaml", spec.valuesFrom().get(1).effectiveKey());
    assertTrue(spec.valuesFrom().get(0).isOptional());
    assertEquals(Duration.ofMinutes(5), spec.effectiveTimeout());
    assertEquals(5, spec.effectiveMaxHistory());
    assertEquals(CrdsPolicy.Create, spec.effectiveInstall().effectiveCrds());
    assertEquals(CrdsPolicy.Skip, spec.effectiveUpgrade().effectiveCrds());
    assertEquals(3, spec.effectiveUpgrade().effectiveRemediation().effectiveRetries());
    assertTrue(spec.effectiveUpgrade().effectiveRemediation().remediatesLastFailure());
    assertEquals(
        UpgradeRemediation.Strategy.rollback,
        spec.effectiveUpgrade().effectiveRemediation().effectiveStrategy());
    assertEquals(DriftDetection.Mode.disabled, spec.driftDetectionMode());
    assertEquals(HelmReleaseSpec.PostRenderStrategy.combined, spec.effectivePostRenderStrategy());
    assertEquals(
        Uninstall.DeletionPropagation.background,
        spec.effectiveUninstall().effectiveDeletionPropagation());
    assertEquals("redis", spec.dependencies().get(0).name());
    assertEquals("Deployment", spec.dependencies().get(1).kind());
    assertTrue(serialization.asYaml(release).contains("replicaCount: 2"));
  }

  @Test
  void aLongComposedReleaseNameIsShortenedAsFluxShortensIt() {
    HelmRelease release =
        serialization.unmarshal(
            """
            apiVersion: helm.capstan.dev/v2
            kind: HelmRelease
            metadata: {name: a-release-with-a-name-long-enough-to-overflow, namespace: apps}
            spec:
              interval: 1m
              targetNamespace: a-target-namespace-also-long
              chartRef: {kind: OCIRepository, name: podinfo}
            """,
            HelmRelease.class);

    // Flux: the first 40 characters, a dash, then 12 hex digits of the full name's SHA-256.
    assertEquals("a-target-namespace-also-long-a-release-w-c9b8d1aed7ce", release.releaseName());
    assertEquals(ChartReference.Kind.OCIRepository, release.getSpec().chartRef().kind());
  }
}
