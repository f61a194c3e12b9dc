package dev.capstan.cli.faults;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.faults.FaultyProxy.Mode;
import org.junit.jupiter.api.Test;

/** What counts as a registry fault's clear failure, and what reads as a stack trace. */
class RegistryFailureCheckTest {
  private static final String PULL = "failed to pull artifact from 'oci://127.0.0.1:";

  @Test
  void aFailedPullNamingItsReasonIsClear() {
    String reset = PULL + "41234/faults/workload': connection reset by the registry";
    assertTrue(RegistryFailureCheck.clear(reset, Mode.DOWN));
    assertTrue(RegistryFailureCheck.clear(reset, Mode.TRUNCATE));
    assertTrue(RegistryFailureCheck.clear(reset, Mode.SLOW));
  }

  @Test
  void aMessageThatIsNotAFailedPullIsNotClear() {
    assertFalse(RegistryFailureCheck.clear("artifact stored", Mode.DOWN));
    assertFalse(RegistryFailureCheck.clear("failed to pull artifact from 'oci://", Mode.DOWN));
  }

  @Test
  void a500FaultNeedsTheAnswerInTheReason() {
    assertTrue(
        RegistryFailureCheck.clear(
            PULL + "41234/faults/workload': the registry answered 500", Mode.ERROR_500));
  }

  @Test
  void aPortContaining500DoesNotMakeA500Clear() {
    assertFalse(
        RegistryFailureCheck.clear(
            PULL + "35001/faults/workload': connection reset by the registry", Mode.ERROR_500));
    assertFalse(
        RegistryFailureCheck.clear(
            PULL + "45000/faults/workload': read timed out", Mode.ERROR_500));
  }

  @Test
  void stackTracesAndExceptionNamesAreNotMessages() {
    assertTrue(
        SourceFailureWait.readsAsStackTrace(
            "java.io.IOException: reset\n\tat dev.capstan.source.oci.OciSource.fetch"));
    assertTrue(SourceFailureWait.readsAsStackTrace("java.net.SocketException: Connection reset"));
    assertFalse(
        SourceFailureWait.readsAsStackTrace(
            PULL + "41234/faults/workload': connection reset by the registry"));
  }
}
