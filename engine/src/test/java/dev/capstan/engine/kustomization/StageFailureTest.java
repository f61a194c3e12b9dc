package dev.capstan.engine.kustomization;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.conditions.Reason;
import org.junit.jupiter.api.Test;

class StageFailureTest {

  @Test
  void tooDeepIsATerminalFailureNamingWhatNestsAndNoInput() {
    Phase.Failed failed =
        (Phase.Failed) StageFailure.tooDeep(Reason.BUILD_FAILED, "the build input").phase();
    assertEquals(Reason.BUILD_FAILED, failed.reason());
    assertEquals(true, failed.terminal());
    assertEquals("the build input nests too deeply to be processed", failed.message());
  }
}
