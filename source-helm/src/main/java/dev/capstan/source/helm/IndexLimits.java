package dev.capstan.source.helm;

/**
 * What one index may cost: an index comes from a server the tenant names and is hostile until read.
 *
 * @param maxBytes the downloaded index.yaml's size; Flux's default bound (50 MiB) is the default
 * @param maxEntries the chart versions of the whole index
 * @param maxDepth the nesting of mappings and sequences anywhere in the document
 * @param maxValueLength a value kept of an entry (name, version, URL, digest, ...), in characters
 * @param maxUrls the URLs of one chart version
 */
public record IndexLimits(
    long maxBytes, int maxEntries, int maxDepth, int maxValueLength, int maxUrls) {

  /** 50 MiB, 200,000 chart versions, 64 levels, values of 4,096 characters, 16 URLs a version. */
  public static final IndexLimits DEFAULTS =
      new IndexLimits(50L * 1024 * 1024, 200_000, 64, 4096, 16);
}
