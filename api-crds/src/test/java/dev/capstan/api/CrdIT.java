package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.HealthCheckExpression;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The committed CRDs install on a real API server, print the right columns and validate input. */
@ExtendWith(KubernetesCluster.class)
class CrdIT {

  @BeforeAll
  static void installCrds(KubernetesClient client) {
    CapstanCrds.install(client);
  }

  @Test
  void kustomizationListPrintsReadyHealthyRevisionStatusAgeAndWideKubeConfigDecryptionReplicaDrift(
      KubernetesClient client, TestNamespace ns) throws Exception {
    client
        .resource(
            kustomization(
                ns,
                "apps",
                Map.of(
                    "kubeConfig", Map.of("secretRef", Map.of("name", "prod-kubeconfig")),
                    "decryption",
                        Map.of("provider", "sops", "secretRef", Map.of("name", "sops-keys")))))
        .create();
    Kustomization created =
        client.resources(Kustomization.class).inNamespace(ns.name()).withName("apps").get();
    created.setStatus(
        Fixtures.readyStatus(
            "main@sha1:0123456789abcdef0123456789abcdef01234567",
            "Applied revision: main@sha1:0123456"));
    client.resources(Kustomization.class).resource(created).updateStatus();
    // the label the owning replica writes when the engine's replicas share the work
    client
        .resources(Kustomization.class)
        .inNamespace(ns.name())
        .withName("apps")
        .edit(
            k -> {
              k.getMetadata().setLabels(Map.of("shards.capstan.dev/replica", "capstan-0"));
              return k;
            });

    Map<String, Object> table =
        table(
            client,
            "/apis/kustomize.capstan.dev/v1/namespaces/"
                + ns.name()
                + "/kustomizations?fieldSelector=metadata.name%3Dapps");

    List<Map<String, Object>> columns = list(table.get("columnDefinitions"));
    assertEquals(
        List.of(
            "Name",
            "READY",
            "HEALTHY",
            "REVISION",
            "STATUS",
            "AGE",
            "KUBECONFIG",
            "DECRYPTION",
            "REPLICA",
            "DRIFTED",
            "SUSPENDED"),
        columns.stream().map(c -> c.get("name")).toList());
    for (int wide = 6; wide < 11; wide++) {
      assertEquals(
          1,
          ((Number) columns.get(wide).get("priority")).intValue(),
          columns.get(wide) + " is for -o wide");
    }
    List<Map<String, Object>> rows = list(table.get("rows"));
    List<Object> cells = list(rows.get(0).get("cells"));
    assertEquals("apps", cells.get(0));
    assertEquals("True", cells.get(1));
    assertEquals("True", cells.get(2));
    assertEquals("main@sha1:0123456789abcdef0123456789abcdef01234567", cells.get(3));
    assertEquals("Applied revision: main@sha1:0123456", cells.get(4));
    assertEquals("prod-kubeconfig", cells.get(6));
    assertEquals("sops", cells.get(7));
    assertEquals("capstan-0", cells.get(8));
    assertEquals("True", cells.get(9));
  }

  @Test
  void gitRepositoryListPrintsUrlReadyRevisionStatusAgeAndWideVerified(
      KubernetesClient client, TestNamespace ns) throws Exception {
    client.resource(gitRepository(ns, "https://example.invalid/org/repo.git")).create();

    Map<String, Object> table =
        table(client, "/apis/source.capstan.dev/v1/namespaces/" + ns.name() + "/gitrepositories");

    assertEquals(
        List.of("Name", "URL", "READY", "REVISION", "STATUS", "AGE", "VERIFIED"),
        list(table.get("columnDefinitions")).stream()
            .map(c -> ((Map<?, ?>) c).get("name"))
            .toList());
    List<Map<String, Object>> rows = list(table.get("rows"));
    assertEquals("https://example.invalid/org/repo.git", list(rows.get(0).get("cells")).get(1));
  }

  @Test
  void ociRepositoryListPrintsUrlReadyRevisionStatusAgeAndWideVerifiedUnderItsShortName(
      KubernetesClient client, TestNamespace ns) throws Exception {
    GenericKubernetesResource repo = new GenericKubernetesResource();
    repo.setApiVersion("source.capstan.dev/v1");
    repo.setKind("OCIRepository");
    repo.setMetadata(new ObjectMetaBuilder().withName("app").withNamespace(ns.name()).build());
    repo.getAdditionalProperties()
        .put(
            "spec",
            Map.of(
                "url",
                "oci://registry.example/org/app",
                "interval",
                "5m",
                "ref",
                Map.of("tag", "latest")));
    client.resource(repo).create();

    Map<String, Object> table =
        table(client, "/apis/source.capstan.dev/v1/namespaces/" + ns.name() + "/ocirepositories");

    List<Map<String, Object>> columns = list(table.get("columnDefinitions"));
    assertEquals(
        List.of("Name", "URL", "READY", "REVISION", "STATUS", "AGE", "VERIFIED"),
        columns.stream().map(c -> c.get("name")).toList());
    assertEquals(1, ((Number) columns.get(6).get("priority")).intValue(), "VERIFIED is wide");
    List<Map<String, Object>> rows = list(table.get("rows"));
    assertEquals("oci://registry.example/org/app", list(rows.get(0).get("cells")).get(1));
    assertEquals(
        List.of("ocirepo"),
        client.getApiResources("source.capstan.dev/v1").getResources().stream()
            .filter(r -> "ocirepositories".equals(r.getName()))
            .findFirst()
            .orElseThrow()
            .getShortNames());
  }

  @Test
  void helmRepositoryListPrintsFluxsColumnsUnderItsShortNameWithFluxsDefaults(
      KubernetesClient client, TestNamespace ns) throws Exception {
    client.resource(helmRepository(ns, "podinfo", "default")).create();

    Map<String, Object> table =
        table(client, "/apis/source.capstan.dev/v1/namespaces/" + ns.name() + "/helmrepositories");

    assertEquals(
        List.of("Name", "URL", "Age", "Ready", "Status"),
        list(table.get("columnDefinitions")).stream()
            .map(c -> ((Map<?, ?>) c).get("name"))
            .toList());
    List<Map<String, Object>> rows = list(table.get("rows"));
    assertEquals("https://charts.example.invalid/podinfo", list(rows.get(0).get("cells")).get(1));
    var resource =
        client.getApiResources("source.capstan.dev/v1").getResources().stream()
            .filter(r -> "helmrepositories".equals(r.getName()))
            .findFirst()
            .orElseThrow();
    assertEquals(List.of("helmrepo"), resource.getShortNames());
    assertEquals(List.of("all", "fluxcd", "fluxcd-sources"), resource.getCategories());
    GenericKubernetesResource read =
        client
            .genericKubernetesResources("source.capstan.dev/v1", "HelmRepository")
            .inNamespace(ns.name())
            .withName("podinfo")
            .get();
    assertEquals(
        "generic", ((Map<?, ?>) read.getAdditionalProperties().get("spec")).get("provider"));
    assertEquals(
        -1,
        ((Number)
                ((Map<?, ?>) read.getAdditionalProperties().get("status"))
                    .get("observedGeneration"))
            .intValue());

    KubernetesClientException type =
        assertThrows(
            KubernetesClientException.class,
            () -> client.resource(helmRepository(ns, "bad-type", "git")).create());
    assertTrue(type.getMessage().contains("spec.type"), type.getMessage());
  }

  @Test
  void bucketListPrintsFluxsColumnsWithFluxsDefaultsAndEnums(
      KubernetesClient client, TestNamespace ns) throws Exception {
    client.resource(bucket(ns, "podinfo", Map.of())).create();

    Map<String, Object> table =
        table(client, "/apis/source.capstan.dev/v1/namespaces/" + ns.name() + "/buckets");

    assertEquals(
        List.of("Name", "Endpoint", "Age", "Ready", "Status"),
        list(table.get("columnDefinitions")).stream()
            .map(c -> ((Map<?, ?>) c).get("name"))
            .toList());
    List<Map<String, Object>> rows = list(table.get("rows"));
    assertEquals("minio.example.invalid", list(rows.get(0).get("cells")).get(1));
    var resource =
        client.getApiResources("source.capstan.dev/v1").getResources().stream()
            .filter(r -> "buckets".equals(r.getName()))
            .findFirst()
            .orElseThrow();
    assertEquals(List.of("all", "fluxcd", "fluxcd-sources"), resource.getCategories());
    GenericKubernetesResource read =
        client
            .genericKubernetesResources("source.capstan.dev/v1", "Bucket")
            .inNamespace(ns.name())
            .withName("podinfo")
            .get();
    Map<?, ?> spec = (Map<?, ?>) read.getAdditionalProperties().get("spec");
    assertEquals("generic", spec.get("provider"));
    assertEquals("60s", spec.get("timeout"));

    KubernetesClientException provider =
        assertThrows(
            KubernetesClientException.class,
            () -> client.resource(bucket(ns, "bad", Map.of("provider", "s3"))).create());
    assertTrue(provider.getMessage().contains("spec.provider"), provider.getMessage());
  }

  private static GenericKubernetesResource bucket(
      TestNamespace ns, String name, Map<String, Object> extra) {
    GenericKubernetesResource bucket = new GenericKubernetesResource();
    bucket.setApiVersion("source.capstan.dev/v1");
    bucket.setKind("Bucket");
    bucket.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns.name()).build());
    Map<String, Object> spec = new HashMap<>(extra);
    spec.put("endpoint", "minio.example.invalid");
    spec.put("bucketName", "podinfo");
    spec.put("interval", "5m");
    bucket.getAdditionalProperties().put("spec", spec);
    return bucket;
  }

  private static GenericKubernetesResource helmRepository(
      TestNamespace ns, String name, String type) {
    GenericKubernetesResource repo = new GenericKubernetesResource();
    repo.setApiVersion("source.capstan.dev/v1");
    repo.setKind("HelmRepository");
    repo.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns.name()).build());
    repo.getAdditionalProperties()
        .put(
            "spec",
            Map.of(
                "url", "https://charts.example.invalid/podinfo", "interval", "5m", "type", type));
    return repo;
  }

  @Test
  void schemaTakesIgnoreRulesAndTheDriftModesAndDescribesThem(
      KubernetesClient client, TestNamespace ns) {
    Map<String, Object> rule =
        Map.of(
            "paths",
            List.of("/spec/replicas"),
            "target",
            Map.of("kind", "Deployment", "labelSelector", "app=web"));
    client
        .resource(
            kustomization(
                ns,
                "ignoring",
                Map.of("ignore", List.of(rule), "driftDetection", Map.of("mode", "warn"))))
        .create();
    Kustomization read =
        client.resources(Kustomization.class).inNamespace(ns.name()).withName("ignoring").get();
    assertEquals(List.of("/spec/replicas"), read.getSpec().ignore().get(0).paths());
    assertEquals("Deployment", read.getSpec().ignore().get(0).target().kind());
    assertEquals("warn", read.getSpec().driftDetectionMode().name());

    KubernetesClientException mode =
        rejected(
            client, kustomization(ns, "bad-mode", Map.of("driftDetection", Map.of("mode", "fix"))));
    assertTrue(mode.getMessage().contains("spec.driftDetection.mode"), mode.getMessage());
    KubernetesClientException noPaths =
        rejected(client, kustomization(ns, "no-paths", Map.of("ignore", List.of(Map.of()))));
    assertTrue(noPaths.getMessage().contains("paths"), noPaths.getMessage());

    Map<String, Object> spec = specSchema(client);
    for (String field : List.of("ignore", "driftDetection")) {
      String description = String.valueOf(((Map<?, ?>) spec.get(field)).get("description"));
      assertTrue(description.length() > 40, field + ": " + description);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> specSchema(KubernetesClient client) {
    var crd =
        client
            .apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName("kustomizations.kustomize.capstan.dev")
            .get();
    var schema = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
    return (Map<String, Object>)
        Serialization.jsonMapper()
            .convertValue(schema.getProperties().get("spec").getProperties(), Map.class);
  }

  @Test
  void schemaRejectsAMalformedDuration(KubernetesClient client, TestNamespace ns) {
    KubernetesClientException error =
        rejected(client, kustomization(ns, "bad-interval", Map.of("interval", "5 minutes")));
    assertTrue(error.getMessage().contains("spec.interval"), error.getMessage());
  }

  @Test
  void schemaRejectsASourceKindOtherThanGitRepository(KubernetesClient client, TestNamespace ns) {
    KubernetesClientException error =
        rejected(
            client,
            kustomization(
                ns,
                "bad-kind",
                Map.of("sourceRef", Map.of("kind", "HelmRepository", "name", "repo"))));
    assertTrue(error.getMessage().contains("spec.sourceRef.kind"), error.getMessage());
    assertTrue(error.getMessage().contains("GitRepository"), error.getMessage());
  }

  @Test
  void schemaRejectsAKustomizationThatDependsOnItself(KubernetesClient client, TestNamespace ns) {
    KubernetesClientException error =
        rejected(
            client,
            kustomization(ns, "loop", Map.of("dependsOn", List.of(Map.of("name", "loop")))));
    assertTrue(error.getMessage().contains("cannot depend on itself"), error.getMessage());
  }

  @Test
  void schemaAcceptsADependencyOnAnotherKustomization(KubernetesClient client, TestNamespace ns) {
    client
        .resource(kustomization(ns, "app", Map.of("dependsOn", List.of(Map.of("name", "infra")))))
        .create();
    assertEquals(
        "infra",
        client
            .resources(Kustomization.class)
            .inNamespace(ns.name())
            .withName("app")
            .get()
            .getSpec()
            .dependsOn()
            .get(0)
            .name());
  }

  @Test
  void schemaAcceptsADependencyOnAnObjectNamedLikeTheKustomization(
      KubernetesClient client, TestNamespace ns) {
    client
        .resource(
            kustomization(
                ns,
                "web",
                Map.of(
                    "dependsOn",
                    List.of(
                        Map.of("apiVersion", "apps/v1", "kind", "Deployment", "name", "web"),
                        Map.of(
                            "apiVersion",
                            "v1",
                            "kind",
                            "ConfigMap",
                            "name",
                            "web",
                            "readyExpr",
                            "dep.data.ok == 'yes'")))))
        .create();
    var deps =
        client
            .resources(Kustomization.class)
            .inNamespace(ns.name())
            .withName("web")
            .get()
            .getSpec()
            .dependsOn();
    assertEquals("apps/v1", deps.get(0).apiVersion());
    assertEquals("ConfigMap", deps.get(1).kind());
  }

  @Test
  void schemaRejectsMalformedOrHalfDependencyTypes(KubernetesClient client, TestNamespace ns) {
    KubernetesClientException noKind =
        rejected(
            client,
            kustomization(
                ns,
                "no-kind",
                Map.of("dependsOn", List.of(Map.of("apiVersion", "apps/v1", "name", "db")))));
    assertTrue(noKind.getMessage().contains("apiVersion needs kind"), noKind.getMessage());
    KubernetesClientException noVersion =
        rejected(
            client,
            kustomization(
                ns,
                "no-version",
                Map.of("dependsOn", List.of(Map.of("kind", "Deployment", "name", "db")))));
    assertTrue(
        noVersion.getMessage().contains("kind other than Kustomization needs apiVersion"),
        noVersion.getMessage());
    KubernetesClientException malformed =
        rejected(
            client,
            kustomization(
                ns,
                "malformed",
                Map.of(
                    "dependsOn",
                    List.of(Map.of("apiVersion", "Apps/V1", "kind", "deployment", "name", "db")))));
    assertTrue(
        malformed.getMessage().contains("spec.dependsOn[0].apiVersion"), malformed.getMessage());
    assertTrue(malformed.getMessage().contains("spec.dependsOn[0].kind"), malformed.getMessage());
    KubernetesClientException self =
        rejected(
            client,
            kustomization(
                ns,
                "me",
                Map.of(
                    "dependsOn",
                    List.of(
                        Map.of(
                            "apiVersion",
                            "kustomize.capstan.dev/v1",
                            "kind",
                            "Kustomization",
                            "name",
                            "me")))));
    assertTrue(self.getMessage().contains("cannot depend on itself"), self.getMessage());
  }

  @Test
  void schemaTakesExactlyOneOfKubeConfigSecretRefAndConfigMapRef(
      KubernetesClient client, TestNamespace ns) {
    KubernetesClientException both =
        rejected(
            client,
            kustomization(
                ns,
                "both-refs",
                Map.of(
                    "kubeConfig",
                    Map.of(
                        "secretRef",
                        Map.of("name", "remote"),
                        "configMapRef",
                        Map.of("name", "remote")))));
    assertTrue(
        both.getMessage().contains("exactly one of secretRef and configMapRef"), both.getMessage());
    KubernetesClientException none =
        rejected(client, kustomization(ns, "no-ref", Map.of("kubeConfig", Map.of())));
    assertTrue(
        none.getMessage().contains("exactly one of secretRef and configMapRef"), none.getMessage());

    client
        .resource(
            kustomization(
                ns,
                "remote",
                Map.of(
                    "kubeConfig",
                    Map.of("secretRef", Map.of("name", "remote-kubeconfig", "key", "value.yaml")))))
        .create();
    var secretRef =
        client
            .resources(Kustomization.class)
            .inNamespace(ns.name())
            .withName("remote")
            .get()
            .getSpec()
            .kubeConfig()
            .secretRef();
    assertEquals("remote-kubeconfig", secretRef.name());
    assertEquals("value.yaml", secretRef.key());
  }

  @Test
  void schemaRejectsCelExpressionsLongerThanTheLimit(KubernetesClient client, TestNamespace ns) {
    String tooLong = "'" + "a".repeat(HealthCheckExpression.MAX_EXPRESSION_LENGTH) + "' != ''";
    KubernetesClientException error =
        rejected(
            client,
            kustomization(
                ns,
                "long-exprs",
                Map.of(
                    "healthCheckExprs",
                        List.of(
                            Map.of(
                                "apiVersion",
                                "example.com/v1",
                                "kind",
                                "Widget",
                                "current",
                                tooLong)),
                    "dependsOn", List.of(Map.of("name", "infra", "readyExpr", tooLong)))));
    assertTrue(error.getMessage().contains("spec.healthCheckExprs[0].current"), error.getMessage());
    assertTrue(error.getMessage().contains("spec.dependsOn[0].readyExpr"), error.getMessage());
  }

  @Test
  void schemaRejectsAGitRepositoryWithAMalformedUrlOrInterval(
      KubernetesClient client, TestNamespace ns) {
    GenericKubernetesResource repo = gitRepository(ns, "not a url");
    repo.getAdditionalProperties().put("spec", Map.of("url", "not a url", "interval", "1 minute"));
    KubernetesClientException error = rejected(client, repo);
    assertTrue(error.getMessage().contains("spec.url"), error.getMessage());
    assertTrue(error.getMessage().contains("spec.interval"), error.getMessage());
  }

  @Test
  void schemaRejectsAGitRepositoryNamingALocalPathOrAnotherScheme(
      KubernetesClient client, TestNamespace ns) {
    for (String url :
        List.of(
            "file:///var/lib/capstan/sources/other/git",
            "/var/lib/capstan/sources/other/git",
            "git://git.example.invalid/r.git",
            "git@git.example.invalid:org/r.git")) {
      KubernetesClientException error = rejected(client, gitRepository(ns, url));
      assertTrue(error.getMessage().contains("spec.url"), url + ": " + error.getMessage());
    }
  }

  @Test
  void schemaBoundsTheLengthsOfNamesAndPaths(KubernetesClient client, TestNamespace ns) {
    Map<String, Map<String, Object>> tooLong =
        Map.of(
            "spec.targetNamespace", Map.of("targetNamespace", "n".repeat(64)),
            "spec.namePrefix", Map.of("namePrefix", ""),
            "spec.nameSuffix", Map.of("nameSuffix", "s".repeat(201)),
            "spec.serviceAccountName", Map.of("serviceAccountName", "a".repeat(254)),
            "spec.path", Map.of("path", "p/".repeat(2049)),
            "spec.components", Map.of("components", Collections.nCopies(101, "../c")));
    tooLong.forEach(
        (field, override) -> {
          KubernetesClientException error =
              rejected(client, kustomization(ns, "bounded", override));
          assertTrue(error.getMessage().contains(field), field + ": " + error.getMessage());
        });
    client
        .resource(
            kustomization(
                ns,
                "within",
                Map.of("targetNamespace", "n".repeat(63), "serviceAccountName", "a".repeat(253))))
        .create();
  }

  private static KubernetesClientException rejected(
      KubernetesClient client, GenericKubernetesResource resource) {
    KubernetesClientException error =
        assertThrows(KubernetesClientException.class, () -> client.resource(resource).create());
    assertEquals(422, error.getCode(), error.getMessage());
    return error;
  }

  static GenericKubernetesResource kustomization(
      TestNamespace ns, String name, Map<String, Object> overrides) {
    Map<String, Object> spec =
        new HashMap<>(
            Map.of(
                "interval",
                "5m",
                "prune",
                true,
                "path",
                "./apps",
                "sourceRef",
                Map.of("kind", "GitRepository", "name", "repo")));
    spec.putAll(overrides);
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion("kustomize.capstan.dev/v1");
    resource.setKind("Kustomization");
    resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns.name()).build());
    resource.getAdditionalProperties().put("spec", spec);
    return resource;
  }

  static GenericKubernetesResource gitRepository(TestNamespace ns, String url) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion("source.capstan.dev/v1");
    resource.setKind("GitRepository");
    resource.setMetadata(new ObjectMetaBuilder().withName("repo").withNamespace(ns.name()).build());
    resource
        .getAdditionalProperties()
        .put("spec", Map.of("url", url, "interval", "1m", "ref", Map.of("branch", "main")));
    return resource;
  }

  /** The server-side Table that kubectl get prints. */
  private static Map<String, Object> table(KubernetesClient client, String path) throws Exception {
    HttpRequest request =
        client
            .getHttpClient()
            .newHttpRequestBuilder()
            .uri(client.getMasterUrl().toString().replaceAll("/$", "") + path)
            .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
            .build();
    HttpResponse<String> response =
        client.getHttpClient().sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
    assertEquals(200, response.code(), response.body());
    return client.getKubernetesSerialization().unmarshal(response.body(), Map.class);
  }

  @SuppressWarnings("unchecked")
  private static <T> List<T> list(Object value) {
    return (List<T>) value;
  }

  @Test
  void helmChartListPrintsFluxsColumnsUnderItsShortNameWithFluxsDefaults(
      KubernetesClient client, TestNamespace ns) throws Exception {
    client.resource(helmChart(ns, "podinfo", "HelmRepository")).create();

    Map<String, Object> table =
        table(client, "/apis/source.capstan.dev/v1/namespaces/" + ns.name() + "/helmcharts");

    assertEquals(
        List.of("Name", "Chart", "Version", "Source Kind", "Source Name", "Age", "Ready", "Status"),
        list(table.get("columnDefinitions")).stream()
            .map(c -> ((Map<?, ?>) c).get("name"))
            .toList());
    List<Map<String, Object>> rows = list(table.get("rows"));
    List<Object> cells = list(rows.get(0).get("cells"));
    assertEquals(
        List.of("podinfo", "podinfo", "*", "HelmRepository", "charts"), cells.subList(0, 5));
    var resource =
        client.getApiResources("source.capstan.dev/v1").getResources().stream()
            .filter(r -> "helmcharts".equals(r.getName()))
            .findFirst()
            .orElseThrow();
    assertEquals(List.of("hc"), resource.getShortNames());
    assertEquals(List.of("all", "fluxcd", "fluxcd-sources"), resource.getCategories());
    GenericKubernetesResource read =
        client
            .genericKubernetesResources("source.capstan.dev/v1", "HelmChart")
            .inNamespace(ns.name())
            .withName("podinfo")
            .get();
    Map<?, ?> spec = (Map<?, ?>) read.getAdditionalProperties().get("spec");
    assertEquals("ChartVersion", spec.get("reconcileStrategy"));
    assertEquals("*", spec.get("version"));
    assertEquals(
        -1,
        ((Number)
                ((Map<?, ?>) read.getAdditionalProperties().get("status"))
                    .get("observedGeneration"))
            .intValue());

    KubernetesClientException kind =
        assertThrows(
            KubernetesClientException.class,
            () -> client.resource(helmChart(ns, "bad-kind", "OCIRepository")).create());
    assertTrue(kind.getMessage().contains("spec.sourceRef.kind"), kind.getMessage());
  }

  private static GenericKubernetesResource helmChart(
      TestNamespace ns, String name, String sourceKind) {
    GenericKubernetesResource chart = new GenericKubernetesResource();
    chart.setApiVersion("source.capstan.dev/v1");
    chart.setKind("HelmChart");
    chart.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns.name()).build());
    chart
        .getAdditionalProperties()
        .put(
            "spec",
            Map.of(
                "chart",
                "podinfo",
                "interval",
                "5m",
                "sourceRef",
                Map.of("kind", sourceKind, "name", "charts")));
    return chart;
  }
}
