package dev.capstan.engine.conditions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class ConditionMessagesTest {

  @Test
  void aMessageWithinTheBoundIsKeptWhole() {
    String message = "x".repeat(ConditionMessages.MAX_LENGTH);
    assertSame(message, ConditionMessages.bounded(message));
    assertNull(ConditionMessages.bounded(null));
  }

  @Test
  void aCutNeverSplitsACharacterOutsideTheBasicPlane() {
    String emoji = "\uD83D\uDE80";
    // The emoji's first half would be the last character kept: the cut comes before it.
    String message = "x".repeat(ConditionMessages.MAX_LENGTH - 4) + emoji + "tail";
    String cut = ConditionMessages.bounded(message);
    assertEquals("x".repeat(ConditionMessages.MAX_LENGTH - 4) + "...", cut);
    assertFalse(Character.isHighSurrogate(cut.charAt(cut.length() - 4)));
  }
}
