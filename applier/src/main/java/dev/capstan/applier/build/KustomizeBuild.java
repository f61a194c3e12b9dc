package dev.capstan.applier.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Builds one directory the way kustomize does: a kustomization's resources (files, directories,
 * nested kustomizations), then its components, generators and transformers, recursively. A
 * directory without a kustomization file is treated as Flux treats it: every manifest file below
 * it, and every sub-directory holding a kustomization, becomes a resource.
 */
final class KustomizeBuild {
  private final ArtifactRoot root;
  private final KustomizationParser parser;
  private final ResourceFiles files;
  private final LevelTransformers transformers;
  private final GeneratedObjects generators;

  KustomizeBuild(ArtifactRoot root, YamlReader yaml) {
    this.root = root;
    this.parser = new KustomizationParser(yaml);
    this.files = new ResourceFiles(root, yaml);
    this.transformers = new LevelTransformers(root, yaml);
    this.generators = new GeneratedObjects(root);
  }

  /** Builds {@code directory}; {@code generateWhenMissing} allows a directory of plain manifests. */
  List<Resource> build(Path directory, boolean generateWhenMissing) {
    return build(directory, generateWhenMissing, new ArrayDeque<>());
  }

  private List<Resource> build(Path directory, boolean generateWhenMissing, Deque<Path> stack) {
    String display = root.display(directory);
    if (stack.contains(directory)) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_KUSTOMIZATION, Origin.of(display), "kustomizations include each other in a cycle");
    }
    stack.push(directory);
    try {
      Optional<Path> file = KustomizationFiles.find(directory, display);
      if (file.isEmpty()) {
        if (!generateWhenMissing) {
          throw new BuildFailure(
              BuildErrorKind.MISSING_RESOURCE, Origin.of(display),
              "directory has no kustomization.yaml, kustomization.yml or Kustomization");
        }
        return plainDirectory(directory, stack);
      }
      Kustomization kustomization = parse(file.get());
      if (kustomization.component()) {
        throw new BuildFailure(
            BuildErrorKind.INVALID_KUSTOMIZATION, kustomization.origin(),
            "a Component can only be listed under 'components'");
      }
      List<Resource> resources = new ArrayList<>();
      run(kustomization, resources, stack);
      return resources;
    } finally {
      stack.pop();
    }
  }

  private Kustomization parse(Path file) {
    return parser.parse(root.read(file), file.getParent(), root.display(file));
  }

  private void run(Kustomization kustomization, List<Resource> resources, Deque<Path> stack) {
    for (String reference : kustomization.resources()) {
      Path path = root.resolve(kustomization.directory(), reference, kustomization.originOf(reference));
      List<Resource> loaded =
          Files.isDirectory(path) ? build(path, false, stack) : files.load(path);
      Accumulator.addAll(resources, loaded);
    }
    for (String reference : kustomization.components()) {
      runComponent(kustomization, reference, resources, stack);
    }
    for (GeneratorSpec generator : kustomization.generators()) {
      generators.generate(resources, generator, kustomization.directory());
    }
    transformers.apply(kustomization, resources);
  }

  private void runComponent(
      Kustomization parent, String reference, List<Resource> resources, Deque<Path> stack) {
    Path directory = root.resolve(parent.directory(), reference, parent.originOf(reference));
    String display = root.display(directory);
    Path file =
        Files.isDirectory(directory)
            ? KustomizationFiles.find(directory, display)
                .orElseThrow(
                    () ->
                        new BuildFailure(
                            BuildErrorKind.MISSING_RESOURCE, parent.originOf(reference),
                            "component '" + reference + "' has no kustomization file"))
            : directory;
    Kustomization component = parse(file);
    if (!component.component()) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_KUSTOMIZATION, component.origin(),
          "listed as a component but its kind is not Component");
    }
    if (stack.contains(directory)) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_KUSTOMIZATION, Origin.of(display), "components include each other in a cycle");
    }
    stack.push(directory);
    try {
      run(component, resources, stack);
    } finally {
      stack.pop();
    }
  }

  private List<Resource> plainDirectory(Path directory, Deque<Path> stack) {
    List<Resource> resources = new ArrayList<>();
    for (Path entry : sortedEntries(directory)) {
      List<Resource> loaded = List.of();
      if (Files.isDirectory(entry)) {
        boolean nested = KustomizationFiles.find(entry, root.display(entry)).isPresent();
        loaded = nested ? build(entry, false, stack) : plainDirectory(entry, stack);
      } else if (isManifestName(entry)) {
        loaded = files.loadIfOnlyObjects(entry).orElse(List.of());
      }
      Accumulator.addAll(resources, loaded);
    }
    return resources;
  }

  private List<Path> sortedEntries(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.filter(p -> !Files.isSymbolicLink(p) || inRoot(p)).sorted().toList();
    } catch (IOException e) {
      throw new BuildFailure(BuildErrorKind.IO, Origin.of(root.display(directory)), "cannot list directory");
    }
  }

  private boolean inRoot(Path path) {
    try {
      return path.toRealPath().startsWith(root.path());
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean isManifestName(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".yaml") || name.endsWith(".yml");
  }
}
