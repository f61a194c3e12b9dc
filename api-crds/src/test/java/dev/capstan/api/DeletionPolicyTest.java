package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.DeletionPolicy;
import org.junit.jupiter.api.Test;

class DeletionPolicyTest {

  @Test
  void policiesFollowFluxSemantics() {
    assertTrue(DeletionPolicy.MirrorPrune.deletesObjects(true));
    assertFalse(DeletionPolicy.MirrorPrune.deletesObjects(false));
    assertTrue(DeletionPolicy.Delete.deletesObjects(false));
    assertFalse(DeletionPolicy.Delete.waitsForTermination());
    assertTrue(DeletionPolicy.WaitForTermination.deletesObjects(false));
    assertTrue(DeletionPolicy.WaitForTermination.waitsForTermination());
    assertFalse(DeletionPolicy.Orphan.deletesObjects(true));
    assertFalse(DeletionPolicy.Orphan.waitsForTermination());
  }
}
