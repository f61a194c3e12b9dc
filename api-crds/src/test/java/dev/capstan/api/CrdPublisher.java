package dev.capstan.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.ExternalArtifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Publishes the CRDs that fabric8's generator wrote into {@code target/classes/META-INF/fabric8} to
 * {@code deploy/crds/}, with the printer columns in the order the classes declare them (the
 * generator sorts them by JSON path, which would put AGE first in {@code kubectl get}), and with
 * what the generator has no annotation for: the status default and the CRDs' own annotations. Runs
 * at build time; args: generated directory, output directory.
 */
public final class CrdPublisher {
  static final List<Class<?>> RESOURCES =
      List.of(
          Kustomization.class,
          GitRepository.class,
          OCIRepository.class,
          HelmRepository.class,
          Bucket.class,
          HelmChart.class,
          ExternalArtifact.class,
          HelmRelease.class);

  /**
   * The kinds a controller reconciles get {@code status.observedGeneration: -1} by default, as
   * Flux's CRDs give them, so that a kstatus reader (Flux's health checks, Argo CD, {@code
   * kstatus}) sees an object no controller has reconciled yet as in progress rather than current.
   * ExternalArtifact's status is its producer's, and Flux leaves it without one.
   */
  static final Set<Class<?>> RECONCILED =
      Set.of(
          Kustomization.class,
          GitRepository.class,
          OCIRepository.class,
          HelmRepository.class,
          Bucket.class,
          HelmChart.class,
          HelmRelease.class);

  /**
   * On every CRD, so that a Kustomization with {@code postBuild} that applies the CRDs does not
   * substitute the {@code ${VAR}} text of their descriptions (Flux's CRDs carry Flux's key).
   */
  static final Map<String, String> ANNOTATIONS =
      Map.of("kustomize.capstan.dev/substitute", "disabled");

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  public static void main(String[] args) throws IOException {
    Path generated = Path.of(args[0]);
    Path output = Path.of(args[1]);
    Files.createDirectories(output);
    for (Class<?> resource : RESOURCES) {
      CustomResourceDefinition crd = read(generated, resource);
      Files.writeString(output.resolve(fileName(crd)), render(crd, resource));
    }
  }

  static String fileName(CustomResourceDefinition crd) {
    return crd.getSpec().getGroup() + "_" + crd.getSpec().getNames().getPlural() + ".yaml";
  }

  static CustomResourceDefinition read(Path generated, Class<?> resource) throws IOException {
    Group group = resource.getAnnotation(Group.class);
    Plural plural = resource.getAnnotation(Plural.class);
    Path file = generated.resolve(plural.value() + "." + group.value() + "-v1.yml");
    return SERIALIZATION.unmarshal(Files.readString(file), CustomResourceDefinition.class);
  }

  static String render(CustomResourceDefinition crd, Class<?> resource) {
    List<String> declared =
        Arrays.stream(resource.getAnnotationsByType(AdditionalPrinterColumn.class))
            .map(AdditionalPrinterColumn::name)
            .toList();
    Comparator<CustomResourceColumnDefinition> byDeclaration =
        Comparator.comparingInt(
            column -> {
              int index = declared.indexOf(column.getName());
              return index < 0 ? declared.size() : index;
            });
    for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
      version.getAdditionalPrinterColumns().sort(byDeclaration);
      if (RECONCILED.contains(resource)) {
        defaultObservedGeneration(version);
      }
    }
    annotate(crd);
    return "# Generated from the Java types in api-crds by the build; do not edit.\n"
        + SERIALIZATION.asYaml(crd).replaceFirst("^---\n", "");
  }

  private static void defaultObservedGeneration(CustomResourceDefinitionVersion version) {
    JSONSchemaProps status = version.getSchema().getOpenAPIV3Schema().getProperties().get("status");
    status.setDefault(SERIALIZATION.convertValue(Map.of("observedGeneration", -1), JsonNode.class));
  }

  private static void annotate(CustomResourceDefinition crd) {
    Map<String, String> annotations = new TreeMap<>(ANNOTATIONS);
    if (crd.getMetadata().getAnnotations() != null) {
      annotations.putAll(crd.getMetadata().getAnnotations());
    }
    crd.getMetadata().setAnnotations(annotations);
  }
}
