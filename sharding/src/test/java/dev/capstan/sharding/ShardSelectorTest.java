package dev.capstan.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShardSelectorTest {
  @Test
  void writesRangesAsTheApiServerParsesThem() {
    SlotSpace halves = new SlotSpace(1);
    ShardSelector first = new ShardSelector(ShardKey.UID, halves, List.of(new SlotRange(0, 1)));
    ShardSelector both =
        new ShardSelector(
            ShardKey.NAMESPACE, halves, List.of(new SlotRange(0, 1), new SlotRange(1, 2)));

    assertEquals(
        "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')",
        first.expression());
    assertEquals(
        "shardRange(object.metadata.namespace, '0x0000000000000000', '0x8000000000000000')"
            + " || shardRange(object.metadata.namespace, '0x8000000000000000',"
            + " '0x10000000000000000')",
        both.expression());
  }

  @Test
  void anEmptyShareIsAnEmptyExpression() {
    assertEquals("", new ShardSelector(ShardKey.UID, SlotSpace.DEFAULT, List.of()).expression());
  }

  @Test
  void matchesTheValuesWhoseHashLiesInItsRanges() {
    SlotSpace space = new SlotSpace(4);
    // "abc" hashes to 0xe71f..., slot 14 of 16; "" to 0xcbf2..., slot 12
    ShardSelector upper = new ShardSelector(ShardKey.UID, space, List.of(new SlotRange(13, 16)));

    assertTrue(upper.matches("abc"));
    assertFalse(upper.matches(""));
    assertEquals("0xe000000000000000", space.bound(14));
  }

  @Test
  void refusesEmptyRangesAndOddSlotCounts() {
    assertThrows(IllegalArgumentException.class, () -> new SlotRange(3, 3));
    assertThrows(IllegalArgumentException.class, () -> new SlotSpace(0));
    assertThrows(IllegalArgumentException.class, () -> new SlotSpace(17));
  }
}
