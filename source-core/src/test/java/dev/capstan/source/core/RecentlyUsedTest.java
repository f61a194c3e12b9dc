package dev.capstan.source.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RecentlyUsedTest {

  @Test
  void beyondItsSizeTheLeastRecentlyUsedEntryIsDropped() {
    RecentlyUsed<String, Integer> map = new RecentlyUsed<>(2);
    map.put("a", 1);
    map.put("b", 2);
    map.get("a");
    map.put("c", 3);
    assertEquals(2, map.size());
    assertTrue(map.containsKey("a"), "a was used after b");
    assertFalse(map.containsKey("b"), "b was the least recently used");
    assertTrue(map.containsKey("c"));
  }
}
