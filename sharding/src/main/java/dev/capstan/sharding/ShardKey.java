package dev.capstan.sharding;

import java.nio.charset.StandardCharsets;

/**
 * The field whose hash places a Kustomization in a slot. The API server hashes the same fields with
 * the same function (64-bit FNV-1a of the value's bytes) when it filters a sharded list or watch,
 * so a replica's slots and the objects the server sends it are the same set.
 */
public enum ShardKey {
  /** Splits a namespace's Kustomizations across replicas: the even spread. */
  UID("object.metadata.uid"),
  /** Keeps a namespace (a tenant) on one replica, with the sources it shares. */
  NAMESPACE("object.metadata.namespace");

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private final String fieldPath;

  ShardKey(String fieldPath) {
    this.fieldPath = fieldPath;
  }

  /** The field as a shard selector names it. */
  public String fieldPath() {
    return fieldPath;
  }

  /** The 64-bit FNV-1a hash of a value of this field, read as an unsigned number. */
  public long hash(String value) {
    long hash = FNV_OFFSET;
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      hash ^= b & 0xff;
      hash *= FNV_PRIME;
    }
    return hash;
  }
}
