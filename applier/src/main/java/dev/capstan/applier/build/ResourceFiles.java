package dev.capstan.applier.build;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Turns manifest files into resources, checking that every document is a Kubernetes object. */
final class ResourceFiles {
  private final ArtifactRoot root;
  private final YamlReader yaml;

  ResourceFiles(ArtifactRoot root, YamlReader yaml) {
    this.root = root;
    this.yaml = yaml;
  }

  /** Every object of the file; a document that is not a named object is an error. */
  List<Resource> load(Path file) {
    return objectsOf(documents(file));
  }

  /**
   * The objects of a file found in a plain directory, or empty when it is not a manifest: some
   * document lacks an apiVersion or a kind (Flux skips such files). The file is parsed once.
   */
  Optional<List<Resource>> loadIfOnlyObjects(Path file) {
    List<YamlDocument> documents = documents(file);
    return holdsOnlyObjects(documents) ? Optional.of(objectsOf(documents)) : Optional.empty();
  }

  private static List<Resource> objectsOf(List<YamlDocument> documents) {
    List<Resource> resources = new ArrayList<>();
    for (YamlDocument document : documents) {
      addObject(resources, document.content(), document.origin());
    }
    return resources;
  }

  private static boolean holdsOnlyObjects(List<YamlDocument> documents) {
    return !documents.isEmpty()
        && documents.stream().allMatch(d -> d.content() instanceof Map<?, ?> map
            && map.get("apiVersion") instanceof String
            && map.get("kind") instanceof String);
  }

  private List<YamlDocument> documents(Path file) {
    return yaml.read(root.read(file), root.display(file)).stream()
        .filter(d -> d.content() != null)
        .toList();
  }

  private static void addObject(List<Resource> resources, Object content, Origin origin) {
    Map<String, Object> object = ObjectTree.stringKeyed(content, origin);
    requireString(object, origin, "apiVersion");
    requireString(object, origin, "kind");
    if (object.get("kind").equals("List") && object.get("items") instanceof List<?> items) {
      for (Object item : items) {
        addObject(resources, item, origin);
      }
      return;
    }
    String name = ObjectTree.string(object, "metadata", "name");
    if (name == null || name.isEmpty()) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_OBJECT, origin,
          object.get("kind") + " has no metadata.name");
    }
    resources.add(new Resource(object, origin));
  }

  private static void requireString(Map<String, Object> object, Origin origin, String field) {
    if (!(object.get(field) instanceof String value) || value.isEmpty()) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_OBJECT, origin, "document is not a Kubernetes object: no " + field);
    }
  }
}
