package dev.capstan.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
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

  @Test
  void aGroupsClaimsAreReadAsEveryReaderTakesThem() {
    String longName = "r".repeat(300);
    SlotClaims.Claims claims =
        SlotClaims.readAll("a=0-4,8-9;=1-2;b=oops;" + longName + "=4-8;;c=0-4000", space);

    assertEquals(
        Map.of(
            "a",
            List.of(new SlotRange(0, 4), new SlotRange(8, 9)),
            "b",
            List.of(new SlotRange(0, 1024)),
            longName,
            List.of(new SlotRange(4, 8)),
            "c",
            List.of(new SlotRange(0, 1024))),
        claims.byReplica());
    assertEquals(List.of("b", "c"), claims.unreadable());
    assertEquals(1, claims.unnamed());
    assertEquals(Map.of(), SlotClaims.readAll("", space).byReplica());
    assertEquals(0, SlotClaims.readAll(null, space).unnamed());
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
