package dev.capstan.applier.kustomize;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How many chart renders run beside the builds. */
class BuildLimitsTest {

  @Test
  void chartRendersRunHalfAsManyAsBuildsAndAtLeastOne() {
    assertEquals(1, BuildLimits.engine(1).chartWorkers());
    assertEquals(1, BuildLimits.engine(2).chartWorkers());
    assertEquals(1, BuildLimits.engine(3).chartWorkers());
    assertEquals(2, BuildLimits.engine(4).chartWorkers());
  }
}
