package dev.capstan.kustomize.chart;

import java.util.Locale;

/** Flux's {@code spec.postRenderStrategy}: what of the hooks the post-renderers see. */
public enum PostRenderStrategy {
  /** Hooks are not post-rendered (Helm 3's way). */
  NOHOOKS,
  /** Hooks and templates are post-rendered together, in one stream (Helm 4's default). */
  COMBINED,
  /** Hooks and templates are post-rendered apart, each stream on its own. */
  SEPARATE;

  /** Its name as Flux's API and the worker spell it. */
  String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
