package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Applies patches to the resources of one kustomization level: JSON 6902 operation lists to the
 * objects their target selects, strategic merge patches (JSON merge patches for custom resources)
 * to the objects their target selects or, without a target, to the object they name.
 */
final class PatchTransformer {
  private final YamlReader yaml;

  PatchTransformer(YamlReader yaml) {
    this.yaml = yaml;
  }

  /** A patch whose text has been loaded; {@code origin} is where its text lives. */
  record LoadedPatch(String text, PatchSelector target, boolean legacyJson6902, Origin origin) {}

  void apply(List<Resource> resources, LoadedPatch patch) {
    List<YamlDocument> documents =
        yaml.read(patch.text(), patch.origin().file()).stream()
            .filter(d -> d.content() != null)
            .map(d -> new YamlDocument(d.content(), originOf(patch, d)))
            .toList();
    if (documents.isEmpty()) {
      throw new BuildFailure(BuildErrorKind.INVALID_PATCH, patch.origin(), "patch is empty");
    }
    if (documents.size() == 1 && documents.get(0).content() instanceof List<?> operations) {
      applyJsonPatch(resources, patch, JsonPatch.parse(ObjectTree.list(operations), documents.get(0).origin()));
      return;
    }
    if (patch.legacyJson6902()) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_PATCH, patch.origin(), "a JSON 6902 patch must be a list of operations");
    }
    for (YamlDocument document : documents) {
      Map<String, Object> content = ObjectTree.map(document.content());
      if (content == null) {
        throw new BuildFailure(
            BuildErrorKind.INVALID_PATCH, document.origin(),
            "a patch must be a mapping (strategic merge) or a list (JSON 6902)");
      }
      applyMergePatch(resources, patch.target(), ObjectTree.stringKeyed(content, document.origin()), document.origin());
    }
  }

  private static Origin originOf(LoadedPatch patch, YamlDocument document) {
    return patch.origin().line() > 0 ? patch.origin() : document.origin();
  }

  private void applyJsonPatch(List<Resource> resources, LoadedPatch patch, JsonPatch operations) {
    if (patch.target() == null) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_PATCH, patch.origin(), "a JSON 6902 patch needs a target");
    }
    TargetMatcher matcher = new TargetMatcher(patch.target(), patch.origin());
    for (int i = 0; i < resources.size(); i++) {
      Resource resource = resources.get(i);
      if (matcher.matches(resource)) {
        resources.set(i, replaceContent(resource, operations.apply(resource.object(), resource.describe())));
      }
    }
  }

  private void applyMergePatch(
      List<Resource> resources, PatchSelector target, Map<String, Object> patch, Origin origin) {
    if (target == null
        && (ObjectTree.string(patch, "kind") == null
            || ObjectTree.string(patch, "metadata", "name") == null)) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_PATCH, origin,
          "a patch without a target must name its object (kind and metadata.name)");
    }
    TargetMatcher matcher = new TargetMatcher(target == null ? selfTarget(patch) : target, origin);
    List<Resource> matched = resources.stream().filter(matcher::matches).toList();
    if (target == null && matched.isEmpty()) {
      throw new BuildFailure(
          BuildErrorKind.PATCH_TARGET_NOT_FOUND, origin,
          "no object in the build matches the patch for " + describeSelf(patch));
    }
    Map<String, Object> body = withoutIdentity(patch);
    for (Resource resource : matched) {
      StrategicMerge merge =
          new StrategicMerge(new MergeKeys(KindTable.isBuiltIn(resource), resource.kind()));
      Map<String, Object> merged = merge.apply(resource.object(), body);
      int index = resources.indexOf(resource);
      if (merged == null) {
        resources.remove(index);
      } else {
        resources.set(index, replaceContent(resource, merged));
      }
    }
  }

  /** A patch without a target selects the object whose group, kind, name (and namespace) it names. */
  private static PatchSelector selfTarget(Map<String, Object> patch) {
    String apiVersion = ObjectTree.string(patch, "apiVersion");
    String kind = ObjectTree.string(patch, "kind");
    String name = ObjectTree.string(patch, "metadata", "name");
    String namespace = ObjectTree.string(patch, "metadata", "namespace");
    String group = apiVersion == null ? null : apiVersion.contains("/") ? apiVersion.split("/")[0] : "";
    return new PatchSelector(
        group == null ? null : Pattern.quote(group),
        null,
        Pattern.quote(kind),
        Pattern.quote(name),
        namespace == null ? null : Pattern.quote(namespace),
        null,
        null);
  }

  private static String describeSelf(Map<String, Object> patch) {
    return ObjectTree.string(patch, "kind") + "/" + ObjectTree.string(patch, "metadata", "name");
  }

  /** The patch minus the fields that only say which object it is for. */
  private static Map<String, Object> withoutIdentity(Map<String, Object> patch) {
    Map<String, Object> body = ObjectTree.stringKeyed(patch, Origin.of(""));
    body.remove("apiVersion");
    body.remove("kind");
    Map<String, Object> metadata = ObjectTree.map(body.get("metadata"));
    if (metadata != null) {
      metadata.remove("name");
      metadata.remove("namespace");
      if (metadata.isEmpty()) {
        body.remove("metadata");
      }
    }
    return body;
  }

  private static Resource replaceContent(Resource resource, Map<String, Object> content) {
    Map<String, Object> object = resource.object();
    String name = resource.name();
    String namespace = resource.namespace();
    object.clear();
    object.putAll(content);
    // Identity is not patchable: names change only through prefixes, suffixes and hashes.
    ObjectTree.mapAt(object, "metadata").put("name", name);
    if (!namespace.isEmpty()) {
      ObjectTree.mapAt(object, "metadata").put("namespace", namespace);
    }
    return resource;
  }

}
