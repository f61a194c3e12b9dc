package dev.capstan.cli.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.CapstanMain;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The install rendered from deploy/ as packed into the jar, without a cluster. */
class InstallManifestsTest {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  @Test
  void theExportHoldsEveryCrdOfDeployCrdsAndTheEngine() throws IOException {
    List<GenericKubernetesResource> objects = exported("install", "--export");
    assertEquals(crdsInDeploy(), names(objects, "CustomResourceDefinition"));
    assertEquals(Set.of("capstan"), names(objects, "Deployment"));
    assertEquals(Set.of("capstan-system"), names(objects, "Namespace"));
    assertTrue(names(objects, "ClusterRoleBinding").contains("capstan-apply"));
    assertEquals("capstan:0.1.0-SNAPSHOT", image(objects));
    // the CRDs first, as deploy/kustomization.yaml orders them, so that a plain apply works
    assertEquals("CustomResourceDefinition", objects.get(0).getKind());
  }

  @Test
  void theNamespaceAndImageAreAppliedEverywhere() {
    List<GenericKubernetesResource> objects =
        exported("install", "--export", "--namespace", "gitops", "--image", "reg.example/c:2");
    String yaml = InstallManifests.yaml(objects);
    assertFalse(yaml.contains("capstan-system"), yaml);
    assertEquals(Set.of("gitops"), names(objects, "Namespace"));
    for (GenericKubernetesResource object : objects) {
      String namespace = object.getMetadata().getNamespace();
      assertTrue(namespace == null || namespace.equals("gitops"), object::toString);
    }
    assertEquals("reg.example/c:2", image(objects));
    List<?> subjects =
        (List<?>)
            byName(objects, "ClusterRoleBinding", "capstan-controller")
                .getAdditionalProperties()
                .get("subjects");
    assertEquals(
        Map.of("kind", "ServiceAccount", "name", "capstan", "namespace", "gitops"),
        subjects.get(0));
  }

  @Test
  void theMultiTenantVariantImpersonatesInsteadOfHoldingClusterAdmin() {
    List<GenericKubernetesResource> objects = exported("install", "--export", "--multi-tenant");
    Set<String> bindings = names(objects, "ClusterRoleBinding");
    assertFalse(bindings.contains("capstan-apply"), bindings::toString);
    assertTrue(bindings.contains("capstan-impersonate"), bindings::toString);
    assertEquals(crdsInDeploy(), names(objects, "CustomResourceDefinition"));
    String yaml = InstallManifests.yaml(objects);
    assertTrue(yaml.contains("--no-cross-namespace-refs"), yaml);
    assertTrue(yaml.contains("--default-service-account=default"), yaml);
  }

  @Test
  void packedPathsStayInsideDeploy() {
    assertEquals("install/engine", PackedDeploy.normalize("install/multi-tenant/../engine"));
    assertEquals("crds/a.yaml", PackedDeploy.normalize("./crds//a.yaml"));
    try {
      PackedDeploy.normalize("../secrets");
      throw new AssertionError("a path out of deploy/ was accepted");
    } catch (IllegalStateException expected) {
      assertTrue(expected.getMessage().contains("outside"));
    }
  }

  /** Runs the command line and reads back what it printed, as kubectl would. */
  private static List<GenericKubernetesResource> exported(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var cli = CapstanMain.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    assertEquals(0, cli.execute(args), err::toString);
    List<GenericKubernetesResource> objects =
        Stream.of(out.toString().split("(?m)^---$"))
            .filter(d -> !d.isBlank())
            .map(d -> SERIALIZATION.unmarshal(d, GenericKubernetesResource.class))
            .toList();
    assertFalse(objects.isEmpty(), out::toString);
    return objects;
  }

  private static Set<String> crdsInDeploy() {
    try (Stream<Path> files = Files.list(RepoRoot.find().resolve("deploy/crds"))) {
      Set<String> names = new TreeSet<>();
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
        names.add(
            SERIALIZATION
                .unmarshal(Files.readString(file), GenericKubernetesResource.class)
                .getMetadata()
                .getName());
      }
      return names;
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static Set<String> names(List<GenericKubernetesResource> objects, String kind) {
    return objects.stream()
        .filter(o -> kind.equals(o.getKind()))
        .map(HasMetadata::getMetadata)
        .map(m -> m.getName())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static GenericKubernetesResource byName(
      List<GenericKubernetesResource> objects, String kind, String name) {
    return objects.stream()
        .filter(o -> kind.equals(o.getKind()) && name.equals(o.getMetadata().getName()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
  }

  private static String image(List<GenericKubernetesResource> objects) {
    GenericKubernetesResource deployment = byName(objects, "Deployment", "capstan");
    Map<?, ?> spec = (Map<?, ?>) deployment.getAdditionalProperties().get("spec");
    Map<?, ?> template = (Map<?, ?>) ((Map<?, ?>) spec.get("template")).get("spec");
    Map<?, ?> container = (Map<?, ?>) ((List<?>) template.get("containers")).get(0);
    return (String) container.get("image");
  }
}
