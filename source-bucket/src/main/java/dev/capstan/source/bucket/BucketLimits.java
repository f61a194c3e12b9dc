package dev.capstan.source.bucket;

/**
 * What one fetch of a bucket may cost: a bucket is filled by whoever can write to it and is hostile
 * until read.
 *
 * @param maxObjects the objects one listing may name (all pages, before ignore rules)
 * @param maxObjectBytes one object's size
 * @param maxTotalBytes the size of all downloaded objects together
 * @param maxKeyLength an object key's length, in characters
 * @param concurrency the downloads of one fetch under way at once
 */
public record BucketLimits(
    int maxObjects, long maxObjectBytes, long maxTotalBytes, int maxKeyLength, int concurrency) {

  /** 100,000 objects, 100 MiB an object, 1 GiB in all, keys of 1,024 characters, 8 at once. */
  public static final BucketLimits DEFAULTS =
      new BucketLimits(100_000, 100L << 20, 1L << 30, 1024, 8);
}
