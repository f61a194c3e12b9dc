package dev.capstan.source.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SemverRangeTest {

  static final List<String> TAGS =
      List.of(
          "v1.0.0",
          "v1.2.0",
          "1.2.5",
          "v1.3.0-rc.1",
          "v2.0.0",
          "v2.1.0-beta",
          "latest",
          "v1.9",
          "release-3");

  @Test
  void highestMatchWithoutPrereleases() {
    assertEquals(Optional.of("1.2.5"), SemverRange.parse("~1.2").highestMatch(TAGS));
    assertEquals(Optional.of("1.2.5"), SemverRange.parse(">=1.0.0 <1.3.0").highestMatch(TAGS));
    assertEquals(Optional.of("v2.0.0"), SemverRange.parse("*").highestMatch(TAGS));
    assertEquals(Optional.of("v2.0.0"), SemverRange.parse(">=1.0.0").highestMatch(TAGS));
    assertEquals(Optional.empty(), SemverRange.parse(">=3.0.0").highestMatch(TAGS));
  }

  @Test
  void prereleasesWhenTheRangeAsksForThem() {
    assertEquals(
        Optional.of("v1.3.0-rc.1"), SemverRange.parse(">=1.3.0-0 <2.0.0").highestMatch(TAGS));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "  ", "not a range!", "~>!!", "1.0.0 || #"})
  void invalidRangesAreInvalidRef(String range) {
    SourceException e = assertThrows(SourceException.class, () -> SemverRange.parse(range));
    assertEquals(FailureReason.INVALID_REF, e.reason());
  }

  @Test
  void oneVersionIsInTheRangeOrNot() {
    assertTrue(SemverRange.parse("^1.2").includes("1.2.5"));
    assertTrue(SemverRange.parse("^1.2").includes("v1.9.0"));
    assertFalse(SemverRange.parse("^1.2").includes("2.0.0"));
    assertFalse(SemverRange.parse("^1.2").includes("1.3.0-rc.1"));
    assertFalse(SemverRange.parse("*").includes("not-a-version"));
  }
}
