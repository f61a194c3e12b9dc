package dev.capstan.cli.install;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildOptions;
import dev.capstan.applier.kustomize.BuildResult;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The install's objects: deploy/ as packed into the jar, built by the kustomize worker (the
 * single-tenant kustomization, or the same with deploy/install/multi-tenant in place of
 * deploy/install), then moved to the chosen namespace and given the chosen image.
 */
public final class InstallManifests {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private InstallManifests() {}

  /** The objects to apply, in build order. */
  public static List<GenericKubernetesResource> render(InstallSettings settings) {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("capstan-install");
      new PackedDeploy(InstallManifests.class.getClassLoader()).writeTo(dir);
      if (settings.multiTenant()) {
        useMultiTenantEngine(dir.resolve(PackedDeploy.ROOT));
      }
      List<GenericKubernetesResource> objects = build(dir);
      InstallTargets.retarget(objects, settings);
      return objects;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      deleteQuietly(dir);
    }
  }

  /** The objects as one multi-document YAML stream, as {@code kubectl apply -f -} reads it. */
  public static String yaml(List<GenericKubernetesResource> objects) {
    StringBuilder out = new StringBuilder();
    for (GenericKubernetesResource object : objects) {
      String document = SERIALIZATION.asYaml(object);
      out.append(document.startsWith("---") ? "" : "---\n").append(document);
      if (!document.endsWith("\n")) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** The root kustomization with install/multi-tenant where it names install. */
  private static void useMultiTenantEngine(Path root) throws IOException {
    ObjectNode kustomization = (ObjectNode) YAML.readTree(root.toFile());
    ArrayNode resources = (ArrayNode) kustomization.get("resources");
    boolean replaced = false;
    for (int i = 0; i < resources.size(); i++) {
      if (PackedDeploy.normalize(resources.get(i).asText()).equals("install")) {
        resources.set(i, PackedDeploy.MULTI_TENANT);
        replaced = true;
      }
    }
    if (!replaced) {
      throw new IllegalStateException("deploy/kustomization.yaml does not name install");
    }
    YAML.writeValue(root.toFile(), (JsonNode) kustomization);
  }

  private static List<GenericKubernetesResource> build(Path dir) {
    BuildResult result;
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      result = builder.build(dir, ".", BuildOptions.none());
    }
    if (result instanceof BuildResult.Failed failed) {
      throw new IllegalStateException("the packed deploy/ does not build: " + failed.error());
    }
    return ((BuildResult.Built) result).objects();
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind harms nothing
    }
  }
}
