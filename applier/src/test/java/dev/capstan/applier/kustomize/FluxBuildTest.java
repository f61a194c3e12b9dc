package dev.capstan.applier.kustomize;

import static dev.capstan.applier.kustomize.BuildFixture.error;
import static dev.capstan.applier.kustomize.BuildFixture.field;
import static dev.capstan.applier.kustomize.BuildFixture.named;
import static dev.capstan.applier.kustomize.BuildFixture.objects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What Flux does around kustomize: its generated kustomization, the Kustomization's fields, errors.
 */
class FluxBuildTest {
  private static final ManifestBuilder BUILDER =
      new ManifestBuilder(BuildLimits.oneShot(), BuildFixture.tempSandbox());
  private static final String DEPLOYMENT =
      """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, labels: {app: web}}
      spec:
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec: {containers: [{name: web, image: "nginx:1.0"}]}
      """;

  @TempDir Path dir;

  @AfterAll
  static void close() {
    BUILDER.close();
  }

  private BuildFixture fixture(Map<String, String> files) {
    return new BuildFixture(dir).files(files);
  }

  private List<GenericKubernetesResource> build(String path, BuildOptions options) {
    return objects(BUILDER.build(dir, path, options));
  }

  @Test
  void aDirectoryWithoutKustomizationIsEveryManifestBelowIt() {
    fixture(
        Map.of(
            "apps/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
            "apps/sub/b.yml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n---\n"
                    + "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
            "apps/sub/nested/kustomization.yaml", "namePrefix: n-\nresources: [svc.yaml]\n",
            "apps/sub/nested/svc.yaml",
                "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}]}\n",
            "apps/README.md", "not a manifest"));
    List<String> names =
        build("apps", BuildOptions.none()).stream().map(o -> o.getMetadata().getName()).toList();
    assertEquals(List.of("a", "b", "c", "n-s"), names);
  }

  /**
   * A Kustomization's path through directories whose names hold any class of characters the file
   * system allows: with the directory's own kustomization and with the one generated for it.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "a b",
        "at@sign",
        "plus+sign",
        "tilde~",
        "per%cent",
        "com,ma",
        "é-accent",
        "a b@c+d~e%f,gé名"
      })
  void aPathThroughAnyNameTheFileSystemAllowsBuilds(String name) {
    fixture(
        Map.of(
            name + "/own/kustomization.yaml", "resources: [deploy.yaml]\n",
            name + "/own/deploy.yaml", DEPLOYMENT,
            name + "/plain/deploy.yaml", DEPLOYMENT));
    BuildOptions prefixed = BuildOptions.none().withNameAffixes("p-", "");
    assertEquals("p-web", build(name + "/own", prefixed).get(0).getMetadata().getName());
    assertEquals("p-web", build(name + "/plain", prefixed).get(0).getMetadata().getName());
  }

  @Test
  void aYamlFileThatIsNoManifestFailsThePlainDirectoryAsInFlux() {
    fixture(
        Map.of(
            "apps/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
            "apps/values.yaml", "replicaCount: 1\n"));
    BuildError error = error(BUILDER.build(dir, "apps", BuildOptions.none()));
    assertEquals(BuildErrorKind.INVALID_KUSTOMIZATION, error.kind());
    assertTrue(
        error.message().startsWith("failed to decode Kubernetes YAML from apps/values.yaml"),
        error.message());
  }

  @Test
  void theKustomizationsFieldsReplaceTheFilesNamespacePrefixAndSuffix() {
    fixture(
        Map.of(
            "app/kustomization.yaml",
            "namespace: a\nnamePrefix: x-\nnameSuffix: -1\nresources: [deploy.yaml]\n",
            "app/deploy.yaml",
            DEPLOYMENT));
    GenericKubernetesResource web =
        build("app", BuildOptions.none().withTargetNamespace("b").withNameAffixes("y-", "")).get(0);
    assertEquals("b", web.getMetadata().getNamespace());
    assertEquals("y-web-1", web.getMetadata().getName(), "prefix replaced, suffix kept");
  }

  @Test
  void patchesAreAddedAfterTheFilesOwn() {
    fixture(
        Map.of(
            "app/kustomization.yaml",
            """
            resources: [deploy.yaml]
            patches:
            - patch: '[{"op": "add", "path": "/spec/replicas", "value": 2}]'
              target: {kind: Deployment}
            """,
            "app/deploy.yaml",
            DEPLOYMENT));
    GenericKubernetesResource web =
        build(
                "app",
                BuildOptions.none()
                    .withPatches(
                        List.of(
                            new KustomizePatch(
                                "[{\"op\": \"replace\", \"path\": \"/spec/replicas\", \"value\":"
                                    + " 5}]",
                                PatchSelector.of("Deployment", "web")))))
            .get(0);
    assertEquals(5, field(web, "spec", "replicas"));
  }

  @Test
  void anImageTheFileListsIsUpdatedFieldByField() {
    fixture(
        Map.of(
            "app/kustomization.yaml",
            """
            resources: [deploy.yaml]
            images: [{name: nginx, newName: registry.local/nginx, digest: "sha256:0000000000000000000000000000000000000000000000000000000000000000"}]
            """,
            "app/deploy.yaml",
            DEPLOYMENT));
    GenericKubernetesResource tagged =
        build(
                "app",
                BuildOptions.none()
                    .withImages(List.of(new ImageOverride("nginx", null, "2.0", null))))
            .get(0);
    assertEquals(
        "registry.local/nginx:2.0", image(tagged), "name kept, tag set, stale digest dropped");
    GenericKubernetesResource renamed =
        build(
                "app",
                BuildOptions.none()
                    .withImages(
                        List.of(new ImageOverride("nginx", "mirror.local/nginx", null, null))))
            .get(0);
    assertTrue(image(renamed).startsWith("mirror.local/nginx@sha256:"), image(renamed));
  }

  @SuppressWarnings("unchecked")
  private static String image(GenericKubernetesResource deployment) {
    List<Map<String, Object>> containers =
        (List<Map<String, Object>>) field(deployment, "spec", "template", "spec", "containers");
    return (String) containers.get(0).get("image");
  }

  @Test
  void componentsAreAddedAndMissingOnesLeftOutWhenAsked() {
    fixture(
        Map.of(
            "app/kustomization.yaml", "resources: [deploy.yaml]\n",
            "app/deploy.yaml", DEPLOYMENT,
            "components/replicas/kustomization.yaml",
                """
                apiVersion: kustomize.config.k8s.io/v1alpha1
                kind: Component
                replicas: [{name: web, count: 3}]
                """));
    List<String> components = List.of("../components/replicas", "../components/missing");
    GenericKubernetesResource web =
        build("app", BuildOptions.none().withComponents(components, true)).get(0);
    assertEquals(3, field(web, "spec", "replicas"));
    BuildError missing =
        error(BUILDER.build(dir, "app", BuildOptions.none().withComponents(components, false)));
    assertEquals(BuildErrorKind.KUSTOMIZE, missing.kind());
    assertTrue(missing.message().contains("components/missing"), missing.message());
    BuildError remote =
        error(
            BUILDER.build(
                dir,
                "app",
                BuildOptions.none().withComponents(List.of("https://example.com/c"), true)));
    assertEquals(
        "component path 'https://example.com/c' must be local and relative", remote.message());
  }

  @Test
  void commonMetadataGoesOnMetadataOnly() {
    fixture(
        Map.of(
            "app/kustomization.yaml", "resources: [deploy.yaml]\n", "app/deploy.yaml", DEPLOYMENT));
    GenericKubernetesResource web =
        build(
                "app",
                BuildOptions.none()
                    .withCommonMetadata(Map.of("team", "a", "app", "shop"), Map.of("owner", "ops")))
            .get(0);
    assertEquals(Map.of("team", "a", "app", "shop"), web.getMetadata().getLabels());
    assertEquals(Map.of("owner", "ops"), web.getMetadata().getAnnotations());
    assertEquals(Map.of("app", "web"), field(web, "spec", "selector", "matchLabels"));
    assertEquals(Map.of("app", "web"), field(web, "spec", "template", "metadata", "labels"));
  }

  @Test
  void aKustomizationWithoutResourcesKeepsItsOriginAnnotationsAsInFlux() {
    fixture(
        Map.of(
            "app/kustomization.yaml", "configMapGenerator: [{name: settings, literals: [a=b]}]\n"));
    GenericKubernetesResource settings = build("app", BuildOptions.none()).get(0);
    assertTrue(
        settings.getMetadata().getAnnotations().containsKey("config.kubernetes.io/origin"),
        String.valueOf(settings.getMetadata().getAnnotations()));
  }

  /**
   * As in Flux, variables are substituted in kustomize's YAML of each object, which no longer has
   * the source's quotes: {@code "${N}"} with N=3 becomes the number 3. What Flux documents for a
   * string is a value that carries its quotes: N={@code "3"}.
   */
  @Test
  void substitutionTypesValuesAsFluxDoes() {
    fixture(
        Map.of(
            "app/cm.yaml",
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: c}
            data:
              bare: ${N}
              quoted: "${N}"
              string: ${S}
              text: n-${N}
            """));
    GenericKubernetesResource config =
        build(
                "app",
                BuildOptions.none()
                    .withPostBuild(
                        new PostBuildVariables(Map.of("N", "3", "S", "\"3\""), List.of(), false)))
            .get(0);
    assertEquals(
        Map.of("bare", 3, "quoted", 3, "string", "3", "text", "n-3"), field(config, "data"));
  }

  @Test
  void substitutionFollowsFluxsPrecedence() {
    fixture(
        Map.of(
            "app/deploy.yaml",
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, annotations: {zone: "${ZONE}", tier: "${TIER:=web}"}}
            spec:
              replicas: ${REPLICAS}
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec: {containers: [{name: web, image: nginx}]}
            """));
    PostBuildVariables vars =
        new PostBuildVariables(
            Map.of("ZONE", "eu\nwest"),
            List.of(Map.of("REPLICAS", "2", "ZONE", "us"), Map.of("REPLICAS", "3")),
            false);
    GenericKubernetesResource web = build("app", BuildOptions.none().withPostBuild(vars)).get(0);
    assertEquals(3, field(web, "spec", "replicas"), "later sources win");
    assertEquals(
        Map.of("zone", "euwest", "tier", "web"),
        web.getMetadata().getAnnotations(),
        "substitute wins over sources; newlines removed; defaults apply");
  }

  @Test
  void withoutVariablesNothingIsSubstitutedUnlessAlways() {
    fixture(
        Map.of(
            "app/cm.yaml",
            "apiVersion: v1\n"
                + "kind: ConfigMap\n"
                + "metadata: {name: c}\n"
                + "data: {tier: \"${TIER:=web}\"}\n"));
    GenericKubernetesResource withVariables =
        build(
                "app",
                BuildOptions.none()
                    .withPostBuild(new PostBuildVariables(Map.of(), List.of(), false)))
            .get(0);
    assertEquals(Map.of("tier", "${TIER:=web}"), field(withVariables, "data"));
    GenericKubernetesResource always =
        build(
                "app",
                BuildOptions.none()
                    .withPostBuild(new PostBuildVariables(Map.of(), List.of(), true)))
            .get(0);
    assertEquals(Map.of("tier", "web"), field(always, "data"));
  }

  @Test
  void anObjectCanOptOutOfSubstitution() {
    fixture(
        Map.of(
            "app/cm.yaml",
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: flux, annotations: {kustomize.toolkit.fluxcd.io/substitute: disabled}}
            data: {v: "${V}"}
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: capstan, labels: {kustomize.capstan.dev/substitute: disabled}}
            data: {v: "${V}"}
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: other}
            data: {v: "${V}"}
            """));
    List<GenericKubernetesResource> objects =
        build(
            "app",
            BuildOptions.none()
                .withPostBuild(new PostBuildVariables(Map.of("V", "1"), List.of(), false)));
    assertEquals(Map.of("v", "${V}"), field(named(objects, "flux"), "data"));
    assertEquals(Map.of("v", "${V}"), field(named(objects, "capstan"), "data"));
    assertEquals(Map.of("v", 1), field(named(objects, "other"), "data"));
  }

  @Test
  void badSubstitutionsAreErrorsNamingTheObject() {
    fixture(
        Map.of(
            "app/cm.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {v: \"${V\"}\n"));
    BuildError malformed =
        error(
            BUILDER.build(
                dir,
                "app",
                BuildOptions.none()
                    .withPostBuild(new PostBuildVariables(Map.of("V", "1"), List.of(), false))));
    assertEquals(BuildErrorKind.SUBSTITUTION, malformed.kind());
    assertEquals(
        "post build failed for 'ConfigMap.v1.[noGrp]/c': envsubst error: variable substitution "
            + "failed: missing closing brace",
        malformed.message());
    BuildError badName =
        error(
            BUILDER.build(
                dir,
                "app",
                BuildOptions.none()
                    .withPostBuild(
                        new PostBuildVariables(Map.of("bad-name", "1"), List.of(), false))));
    assertTrue(badName.message().contains("'bad-name' var name is invalid"), badName.message());
  }

  @Test
  void aMissingPathIsReportedRelativeToTheArtifact() {
    fixture(Map.of("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"));
    BuildError error = error(BUILDER.build(dir, "./nowhere", BuildOptions.none()));
    assertEquals(BuildErrorKind.PATH_NOT_FOUND, error.kind());
    assertTrue(
        error
            .message()
            .matches("kustomization path not found: stat nowhere: (?i)no such file or directory"),
        error.message());
  }

  @Test
  void kustomizeErrorsNameTheFileAndNoPathOfTheEngine() {
    fixture(
        Map.of(
            "app/kustomization.yaml",
            "resources: [deploy.yaml, missing.yaml]\n",
            "app/deploy.yaml",
            DEPLOYMENT));
    BuildError error = error(BUILDER.build(dir, "app", BuildOptions.none()));
    assertEquals(BuildErrorKind.KUSTOMIZE, error.kind());
    assertTrue(error.message().startsWith("kustomize build failed: "), error.message());
    assertTrue(error.message().contains("app/missing.yaml"), error.message());
    assertFalse(error.message().contains("/artifact"), error.message());
    assertFalse(error.message().contains(dir.toString()), error.message());
  }

  @Test
  void aSecretsValuesNeverReachAMessage() {
    fixture(
        Map.of(
            "app/kustomization.yaml", "resources: [secret.yaml]\npatches: [{path: patch.yaml}]\n",
            "app/secret.yaml",
                "apiVersion: v1\n"
                    + "kind: Secret\n"
                    + "metadata: {name: s}\n"
                    + "stringData: {password: hunter2-s3cret}\n",
            "app/patch.yaml",
                "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: [not, a, map]\n"));
    BuildError error = error(BUILDER.build(dir, "app", BuildOptions.none()));
    assertFalse(error.message().contains("hunter2-s3cret"), error.message());
  }

  @Test
  void remoteResourcesHelmChartsAndFunctionsAreRefused() {
    fixture(
        Map.of(
            "remote/kustomization.yaml",
                "resources:\n- https://github.com/example/app//deploy?ref=v1\n",
            "helm/kustomization.yaml",
                "helmCharts: [{name: web, repo: https://charts.example.com, version: 1.0.0}]\n",
            "function/kustomization.yaml", "transformers: [fn.yaml]\n",
            "function/fn.yaml",
                """
                apiVersion: example.com/v1
                kind: Setter
                metadata:
                  name: set
                  annotations:
                    config.kubernetes.io/function: |
                      exec: {path: ./setter}
                """));
    assertEquals(
        "kustomize build failed: remote resources are not supported: a URL in resources is never"
            + " fetched (fetch it with a GitRepository instead)",
        error(BUILDER.build(dir, "remote", BuildOptions.none())).message());
    assertTrue(
        error(BUILDER.build(dir, "helm", BuildOptions.none()))
            .message()
            .startsWith("kustomize build failed: helmCharts are not supported"));
    assertEquals(
        "kustomize build failed: external plugins disabled; unable to load external plugin"
            + " 'Setter'",
        error(BUILDER.build(dir, "function", BuildOptions.none())).message());
  }

  @Test
  void yamlScalarsAreReadAsKubernetesReadsThem() {
    fixture(
        Map.of(
            "app/pod.yaml",
            """
            apiVersion: v1
            kind: Pod
            metadata: {name: p, annotations: {quoted: "0755"}}
            spec:
              containers: [{name: c, image: busybox}]
              volumes: [{name: v, configMap: {name: c, defaultMode: 0755}}]
            """));
    GenericKubernetesResource pod = build("app", BuildOptions.none()).get(0);
    assertEquals("0755", pod.getMetadata().getAnnotations().get("quoted"));
    @SuppressWarnings("unchecked")
    Map<String, Object> volume = ((List<Map<String, Object>>) field(pod, "spec", "volumes")).get(0);
    @SuppressWarnings("unchecked")
    Object mode = ((Map<String, Object>) volume.get("configMap")).get("defaultMode");
    assertEquals(493, mode, "leading-zero octal");
    assertNull(pod.getMetadata().getNamespace());
  }
}
