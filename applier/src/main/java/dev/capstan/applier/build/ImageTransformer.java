package dev.capstan.applier.build;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites container images as kustomize's {@code images} field does: every {@code image} of an
 * item of a {@code containers} or {@code initContainers} list, at any depth, so that pod templates
 * of custom resources are covered too.
 */
final class ImageTransformer {
  private static final Set<String> CONTAINER_LISTS = Set.of("containers", "initContainers");

  private final List<ImageOverride> overrides;

  ImageTransformer(List<ImageOverride> overrides) {
    this.overrides = overrides;
  }

  void apply(List<Resource> resources) {
    if (overrides.isEmpty()) {
      return;
    }
    for (Resource resource : resources) {
      walk(resource.object());
    }
  }

  private void walk(Object node) {
    if (node instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (CONTAINER_LISTS.contains(entry.getKey()) && entry.getValue() instanceof List<?> list) {
          list.forEach(this::rewrite);
        }
        walk(entry.getValue());
      }
    } else if (node instanceof List<?> list) {
      list.forEach(this::walk);
    }
  }

  private void rewrite(Object container) {
    Map<String, Object> map = ObjectTree.map(container);
    if (map == null || !(map.get("image") instanceof String image)) {
      return;
    }
    ImageReference reference = ImageReference.parse(image);
    for (ImageOverride override : overrides) {
      if (reference.name().equals(override.name())) {
        map.put("image", reference.with(override).toString());
        return;
      }
    }
  }

  /** An image split into repository name, tag and digest. */
  record ImageReference(String name, String tag, String digest) {
    static ImageReference parse(String image) {
      String digest = "";
      int at = image.indexOf('@');
      String rest = image;
      if (at >= 0) {
        digest = image.substring(at + 1);
        rest = image.substring(0, at);
      }
      int colon = rest.lastIndexOf(':');
      if (colon > rest.lastIndexOf('/')) {
        return new ImageReference(rest.substring(0, colon), rest.substring(colon + 1), digest);
      }
      return new ImageReference(rest, "", digest);
    }

    ImageReference with(ImageOverride override) {
      String newName = blank(override.newName()) ? name : override.newName();
      if (!blank(override.digest())) {
        return new ImageReference(newName, "", override.digest());
      }
      if (!blank(override.newTag())) {
        return new ImageReference(newName, override.newTag(), "");
      }
      return new ImageReference(newName, tag, digest);
    }

    @Override
    public String toString() {
      return name + (tag.isEmpty() ? "" : ":" + tag) + (digest.isEmpty() ? "" : "@" + digest);
    }

    private static boolean blank(String value) {
      return value == null || value.isEmpty();
    }
  }
}
