package dev.capstan.api.kustomize;

/** kustomize build metadata a Kustomization may ask for (Flux's {@code spec.buildMetadata}). */
public enum BuildMetadataOption {
  /** Annotate each object with {@code config.kubernetes.io/origin}: the file it came from. */
  originAnnotations,
  /** Annotate each object with the kustomize transformers that changed it. */
  transformerAnnotations
}
