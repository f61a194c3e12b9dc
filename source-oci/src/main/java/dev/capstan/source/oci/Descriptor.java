package dev.capstan.source.oci;

import java.util.Map;

/** A content descriptor of an OCI manifest: what a blob is, its digest and its size. */
public record Descriptor(
    String mediaType, String digest, long size, Map<String, String> annotations) {
  public Descriptor {
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
  }
}
