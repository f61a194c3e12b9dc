package dev.capstan.applier.build;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The build stage: turns a path of an artifact (a directory of plain manifests or a kustomization)
 * plus a Kustomization's own settings into the ordered objects to apply. Reads only files below
 * the artifact root; needs no cluster.
 */
public final class ManifestBuilder {
  private final ObjectMapper mapper;
  private final ManifestYaml writer;

  public ManifestBuilder() {
    this(new ObjectMapper());
  }

  ManifestBuilder(ObjectMapper mapper) {
    this.mapper = mapper;
    this.writer = new ManifestYaml(mapper);
  }

  /**
   * Builds {@code path} (relative to {@code root}; "" or "." for the root itself).
   *
   * @return the objects in apply order, or the first error with its file and line
   */
  public BuildResult build(Path root, String path, BuildOptions options) {
    try {
      List<Resource> resources = buildResources(root, path, options);
      List<GenericKubernetesResource> objects = new ArrayList<>(resources.size());
      for (Resource resource : resources) {
        objects.add(mapper.convertValue(resource.object(), GenericKubernetesResource.class));
      }
      return new BuildResult.Built(objects);
    } catch (BuildFailure failure) {
      return new BuildResult.Failed(failure.error());
    }
  }

  private List<Resource> buildResources(Path root, String path, BuildOptions options) {
    YamlReader yaml = new YamlReader();
    ArtifactRoot artifact = new ArtifactRoot(root);
    String relative = path == null || path.isBlank() ? "." : path;
    Origin origin = Origin.of(relative);
    Path directory = artifact.resolve(artifact.path(), stripLeadingSlashes(relative), origin);
    if (!Files.isDirectory(directory)) {
      throw new BuildFailure(BuildErrorKind.MISSING_RESOURCE, origin, "is not a directory");
    }
    List<Resource> resources = new KustomizeBuild(artifact, yaml).build(directory, true);
    new FluxOverlay(new LevelTransformers(artifact, yaml)).apply(resources, options, directory);
    ContentHash.addSuffixes(resources);
    NameReferences.fix(resources);
    List<Resource> ordered = new ArrayList<>(resources);
    Accumulator.addAll(new ArrayList<>(), ordered);
    ordered.sort(new KustomizeOrder());
    new PostBuildSubstitution(yaml, writer).apply(ordered, options);
    return ordered;
  }

  /** Flux paths are written like {@code ./apps/prod}; a leading slash still means the root. */
  private static String stripLeadingSlashes(String path) {
    String stripped = path;
    while (stripped.startsWith("/")) {
      stripped = stripped.substring(1);
    }
    return stripped.isEmpty() ? "." : stripped;
  }
}
