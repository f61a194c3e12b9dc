package dev.capstan.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SlotClaimsTest {
  private final SlotSpace space = SlotSpace.DEFAULT;

  @Test
  void readsBackWhatItWrote() {
    List<SlotRange> ranges = List.of(new SlotRange(0, 341), new SlotRange(1023, 1024));

    assertEquals("0-341,1023-1024", SlotClaims.write(ranges));
    assertEquals(ranges, SlotClaims.read(SlotClaims.write(ranges), space));
    assertEquals(List.of(), SlotClaims.read("", space));
    assertEquals(List.of(), SlotClaims.read(null, space));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0-2000", "5-3", "-1-4", "a-b", "7", "0-4,2-6", "4-8,0-2", "0-4,,5-6"})
  void refusesAClaimThatIsWrongWithoutQuotingIt(String claim) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SlotClaims.read(claim, space));

    assertFalse(e.getMessage().contains(claim), e.getMessage());
  }

  @Test
  void refusesAClaimOfTooManyRanges() {
    String many = "0-1," + "1-2,".repeat(5000);
    assertThrows(IllegalArgumentException.class, () -> SlotClaims.read(many, space));
  }
}
