package dev.capstan.cli.install;

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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The install's objects: deploy/ as packed into the jar, built by the kustomize worker (the
 * single-tenant kustomization, or the same with deploy/install/multi-tenant in place of
 * deploy/install), then moved to the chosen namespace and given the chosen image.
 */
public final class InstallManifests {

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

  /**
   * The root kustomization with install/multi-tenant where it names install, written as JSON (which
   * kustomize reads as YAML).
   */
  private static void useMultiTenantEngine(Path root) throws IOException {
    List<String> resources = new ArrayList<>();
    for (String resource : PackedDeploy.references(PackedDeploy.ROOT, Files.readAllBytes(root))) {
      boolean install = PackedDeploy.normalize(resource).equals("install");
      resources.add(install ? PackedDeploy.MULTI_TENANT : resource);
    }
    if (!resources.contains(PackedDeploy.MULTI_TENANT)) {
      throw new IllegalStateException("deploy/kustomization.yaml does not name install");
    }
    Map<String, Object> kustomization = new LinkedHashMap<>();
    kustomization.put("apiVersion", "kustomize.config.k8s.io/v1beta1");
    kustomization.put("kind", "Kustomization");
    kustomization.put("resources", resources);
    Files.writeString(root, SERIALIZATION.asJson(kustomization));
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
