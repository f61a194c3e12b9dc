package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FieldValidateable.Validation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Flux's own sample objects (kustomize-controller v1.9.4: config/samples and the Kustomizations of
 * docs/spec/v1/kustomizations.md; source-controller v1.9.1: the source samples of config/samples
 * and the GitRepository, OCIRepository, Bucket and HelmRepository examples of docs/spec/v1), with
 * only the API group changed, are accepted by Capstan's CRDs under strict field validation, as
 * {@code kubectl apply} sends them, and read back with every field they set.
 */
@ExtendWith(KubernetesCluster.class)
class FluxSamplesIT {

  @BeforeAll
  static void installCrds(KubernetesClient client) {
    CapstanCrds.install(client);
  }

  @Test
  void configSamplesAreAcceptedAndReadBackWhole(KubernetesClient client, TestNamespace ns) {
    Result result = applyAll(client, ns, "flux-v1.9.4/config-samples.yaml");
    assertEquals(Map.of(), result.missing());
    assertEquals(4, result.applied());
    assertEquals(Set.of(), result.filled(), "the config samples are complete");
  }

  @Test
  void theDocumentationsKustomizationsAreAcceptedAndReadBackWhole(
      KubernetesClient client, TestNamespace ns) {
    Result result = applyAll(client, ns, "flux-v1.9.4/docs-kustomizations.yaml");
    assertEquals(26, result.applied());
    assertEquals(
        Set.of("spec.interval", "spec.prune", "spec.sourceRef"),
        result.filled(),
        "the docs leave out required fields for brevity; only those are filled in");
    Set<String> pending = new TreeSet<>();
    result.missing().values().forEach(paths -> paths.forEach(p -> pending.add(topLevel(p))));
    assertEquals(Set.of(), pending, "fields dropped by the CRD: " + result.missing());
  }

  @Test
  void theSourceConfigSamplesAreAcceptedAndReadBackWhole(
      KubernetesClient client, TestNamespace ns) {
    Result result = applyAll(client, ns, "flux-source-v1.9.1/config-samples.yaml");
    assertEquals(Map.of(), result.missing());
    assertEquals(5, result.applied());
    assertEquals(Set.of(), result.filled(), "the config samples are complete");
  }

  /**
   * Every example object of a source kind's documentation; the docs leave out the required fields
   * for brevity where they show one other field, and only those are filled in.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "docs-gitrepositories.yaml | 14 | spec.interval spec.url",
        "docs-ocirepositories.yaml | 14 | spec.interval spec.url",
        "docs-buckets.yaml | 22 | spec.bucketName spec.endpoint spec.interval",
        "docs-helmrepositories.yaml | 7 | spec.url"
      })
  void theSourceDocumentationsExamplesAreAcceptedAndReadBackWhole(
      String file, int objects, String filledIn, KubernetesClient client, TestNamespace ns) {
    Result result = applyAll(client, ns, "flux-source-v1.9.1/" + file);
    assertEquals(objects, result.applied());
    assertEquals(Set.of(filledIn.split(" ")), result.filled());
    assertEquals(Map.of(), result.missing(), "fields dropped by the CRD");
  }

  /** What applying a sample file gave: fields not read back, by object, and fields filled in. */
  private record Result(int applied, Map<String, List<String>> missing, Set<String> filled) {}

  private static Result applyAll(KubernetesClient client, TestNamespace ns, String file) {
    List<Map<String, Object>> samples = FluxSamples.read(file);
    Map<String, List<String>> missing = new TreeMap<>();
    TreeSet<String> filled = new TreeSet<>();
    for (int i = 0; i < samples.size(); i++) {
      Map<String, Object> object = FluxSamples.capstan(samples.get(i), ns.name(), i, filled);
      GenericKubernetesResource created =
          client
              .resource(
                  client
                      .getKubernetesSerialization()
                      .convertValue(object, GenericKubernetesResource.class))
              .fieldValidation(Validation.STRICT)
              .fieldManager("flux-samples")
              .serverSideApply();
      Map<String, Object> readBack =
          client.getKubernetesSerialization().convertValue(created, Map.class);
      List<String> notRead = new ArrayList<>();
      notRead.addAll(FluxSamples.missing(object.get("spec"), readBack.get("spec"), "spec"));
      notRead.addAll(
          FluxSamples.missing(
              ((Map<?, ?>) object.get("metadata")).get("labels"),
              ((Map<?, ?>) readBack.get("metadata")).get("labels"),
              "metadata.labels"));
      if (!notRead.isEmpty()) {
        missing.put(file + "#" + i, notRead);
      }
    }
    return new Result(samples.size(), missing, filled);
  }

  /** {@code spec.ignore} of {@code spec.ignore[].paths[]}. */
  private static String topLevel(String path) {
    String[] parts = path.split("\\.");
    return parts.length < 2 ? path : parts[0] + "." + parts[1].replace("[]", "");
  }
}
