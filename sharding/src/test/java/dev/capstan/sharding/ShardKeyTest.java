package dev.capstan.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ShardKeyTest {
  // Each value's hash as the API server computes it (Go's hash/fnv New64a over the value's bytes).
  @Test
  void hashesAsTheApiServerDoes() {
    assertEquals(0xcbf29ce484222325L, ShardKey.UID.hash(""));
    assertEquals(0xe71fa2190541574bL, ShardKey.UID.hash("abc"));
    assertEquals(0x93754b7248a00eb9L, ShardKey.UID.hash("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"));
    assertEquals(0xde90a3717d1252d6L, ShardKey.NAMESPACE.hash("team-a"));
  }

  @Test
  void hashesAValueByItsUtf8Bytes() {
    // "é" is two bytes in UTF-8: the hash of one char would differ
    long twoBytes = ShardKey.NAMESPACE.hash("é");
    long expected = 0xcbf29ce484222325L;
    for (int b : new int[] {0xc3, 0xa9}) {
      expected ^= b;
      expected *= 0x100000001b3L;
    }
    assertEquals(expected, twoBytes);
  }

  @Test
  void namesTheFieldAsASelectorDoes() {
    assertEquals("object.metadata.uid", ShardKey.UID.fieldPath());
    assertEquals("object.metadata.namespace", ShardKey.NAMESPACE.fieldPath());
  }
}
