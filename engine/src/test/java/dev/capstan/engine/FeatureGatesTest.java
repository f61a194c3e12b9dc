package dev.capstan.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.FeatureGates.Gate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** --feature-gates in Flux's syntax. */
class FeatureGatesTest {

  @Test
  void defaultsAreStrictSubstitutionAndCancellationOnWatchersOn() {
    FeatureGates gates = FeatureGates.defaults();
    assertTrue(gates.enabled(Gate.StrictPostBuildSubstitutions));
    assertTrue(gates.enabled(Gate.CancelHealthCheckOnNewRevision));
    assertFalse(gates.enabled(Gate.DisableConfigWatchers));
  }

  @Test
  void pairsAreCommaSeparatedFlagsAddUpAndTheLastValueWins() {
    FeatureGates gates =
        FeatureGates.parse(
            List.of(
                "StrictPostBuildSubstitutions=false, CancelHealthCheckOnNewRevision=F",
                "DisableConfigWatchers=1,CancelHealthCheckOnNewRevision=True",
                ""));
    assertFalse(gates.enabled(Gate.StrictPostBuildSubstitutions));
    assertTrue(gates.enabled(Gate.CancelHealthCheckOnNewRevision));
    assertTrue(gates.enabled(Gate.DisableConfigWatchers));
  }

  @Test
  void anUnknownGateAMalformedPairOrAValueThatIsNoBooleanIsRefusedNamingIt() {
    assertEquals(
        "--feature-gates: feature-gate 'GroupChangeLog' not supported (supported:"
            + " StrictPostBuildSubstitutions, CancelHealthCheckOnNewRevision,"
            + " DisableConfigWatchers)",
        assertThrows(
                IllegalArgumentException.class,
                () -> FeatureGates.parse(List.of("GroupChangeLog=true")))
            .getMessage());
    assertEquals(
        "--feature-gates: malformed pair 'StrictPostBuildSubstitutions', expected"
            + " Name=true|false",
        assertThrows(
                IllegalArgumentException.class,
                () -> FeatureGates.parse(List.of("StrictPostBuildSubstitutions")))
            .getMessage());
    assertEquals(
        "--feature-gates: invalid value 'yes' of StrictPostBuildSubstitutions, expected true or"
            + " false",
        assertThrows(
                IllegalArgumentException.class,
                () -> FeatureGates.parse(List.of("StrictPostBuildSubstitutions=yes")))
            .getMessage());
  }
}
