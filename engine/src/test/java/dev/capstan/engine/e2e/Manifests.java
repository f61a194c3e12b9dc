package dev.capstan.engine.e2e;

/** Manifests the end-to-end tests commit. */
final class Manifests {
  private Manifests() {}

  static String configMap(String name, String value) {
    return """
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: %s}
    data: {value: "%s"}
    """
        .formatted(name, value);
  }

  static String deployment(String name, String extraPodSpec, int progressDeadlineSeconds) {
    return """
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: %s}
    spec:
      replicas: 1
      progressDeadlineSeconds: %d
      selector: {matchLabels: {app: %s}}
      template:
        metadata: {labels: {app: %s}}
        spec:
          containers:
          - {name: app, image: "registry.invalid/app:1"}
    %s
    """
        .formatted(name, progressDeadlineSeconds, name, name, extraPodSpec.stripTrailing());
  }
}
