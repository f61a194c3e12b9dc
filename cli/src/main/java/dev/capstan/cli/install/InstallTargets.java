package dev.capstan.cli.install;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;

/**
 * Moves the built install from capstan-system to the chosen namespace and gives the engine's
 * container the chosen image. Done on the objects rather than with kustomize's namespace
 * transformer, which would leave the Namespace object's name and the ServiceAccount subjects of the
 * role bindings as they are.
 */
final class InstallTargets {

  static final String ENGINE_CONTAINER = "capstan";

  private InstallTargets() {}

  static void retarget(List<GenericKubernetesResource> objects, InstallSettings settings) {
    String from = InstallSettings.DEFAULT_NAMESPACE;
    String to = settings.namespace();
    for (GenericKubernetesResource object : objects) {
      if (!from.equals(to)) {
        moveNamespace(object, from, to);
      }
      if (settings.image() != null && "Deployment".equals(object.getKind())) {
        setImage(object, settings.image());
      }
    }
  }

  private static void moveNamespace(GenericKubernetesResource object, String from, String to) {
    var metadata = object.getMetadata();
    if ("Namespace".equals(object.getKind()) && from.equals(metadata.getName())) {
      metadata.setName(to);
    }
    if (from.equals(metadata.getNamespace())) {
      metadata.setNamespace(to);
    }
    if (object.getAdditionalProperties().get("subjects") instanceof List<?> subjects) {
      for (Object subject : subjects) {
        if (subject instanceof Map<?, ?> map
            && "ServiceAccount".equals(map.get("kind"))
            && from.equals(map.get("namespace"))) {
          @SuppressWarnings("unchecked")
          Map<String, Object> writable = (Map<String, Object>) map;
          writable.put("namespace", to);
        }
      }
    }
  }

  private static void setImage(GenericKubernetesResource deployment, String image) {
    Object containers = path(deployment.getAdditionalProperties(), "spec", "template", "spec");
    if (!(containers instanceof Map<?, ?> podSpec)
        || !(podSpec.get("containers") instanceof List<?> list)) {
      return;
    }
    for (Object container : list) {
      if (container instanceof Map<?, ?> map && ENGINE_CONTAINER.equals(map.get("name"))) {
        @SuppressWarnings("unchecked")
        Map<String, Object> writable = (Map<String, Object>) map;
        writable.put("image", image);
      }
    }
  }

  private static Object path(Map<String, Object> root, String... keys) {
    Object current = root;
    for (String key : keys) {
      if (!(current instanceof Map<?, ?> map)) {
        return null;
      }
      current = map.get(key);
    }
    return current;
  }
}
