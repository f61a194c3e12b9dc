package dev.capstan.kustomize.worker;

/**
 * The two build workers, built from the same Go sources: the kustomize worker links no Helm, so
 * that every build worker stays small; the chart worker (built with the {@code helm} tag) also
 * renders Helm charts, and is started only when a chart is rendered.
 */
public enum WorkerKind {
  /** {@code capstan-kustomize-worker}: kustomize's build only. */
  KUSTOMIZE("capstan-kustomize-worker"),
  /** {@code capstan-chart-worker}: Helm's render, and kustomize's build. */
  CHART("capstan-chart-worker");

  private final String baseName;

  WorkerKind(String baseName) {
    this.baseName = baseName;
  }

  /** The executable's name on {@code platform}. */
  String executableName(Platform platform) {
    return platform.os().equals("windows") ? baseName + ".exe" : baseName;
  }
}
