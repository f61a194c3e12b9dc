package dev.capstan.applier.prune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.Owner;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeletionPolicyTest {

  @Test
  void policiesFollowFluxSemantics() {
    assertEquals(DeletionPolicy.MIRROR_PRUNE, DeletionPolicy.parse(null));
    assertTrue(DeletionPolicy.parse("MirrorPrune").deletesObjects(true));
    assertFalse(DeletionPolicy.MIRROR_PRUNE.deletesObjects(false));
    assertTrue(DeletionPolicy.parse("Delete").deletesObjects(false));
    assertFalse(DeletionPolicy.DELETE.waitsForTermination());
    assertTrue(DeletionPolicy.parse("WaitForTermination").deletesObjects(false));
    assertTrue(DeletionPolicy.WAIT_FOR_TERMINATION.waitsForTermination());
    assertFalse(DeletionPolicy.parse("Orphan").deletesObjects(true));
    var e = assertThrows(IllegalArgumentException.class, () -> DeletionPolicy.parse("Keep"));
    assertTrue(e.getMessage().contains("'Keep'") && e.getMessage().contains("WaitForTermination"));
  }

  @Test
  void pruneKeepsDisabledAndForeignObjects() {
    Owner owner = new Owner("app", "flux-system");
    assertTrue(PruneDecision.keepReason(owner.labels(), null, owner).isEmpty());
    assertTrue(PruneDecision.keepReason(owner.labels(), Map.of("capstan.dev/prune", "disabled"), owner)
        .orElseThrow().contains("capstan.dev/prune: disabled"));
    var foreign = new Owner("other", "flux-system").labels();
    assertEquals("kept: owned by Kustomization flux-system/other, not flux-system/app",
        PruneDecision.keepReason(foreign, Map.of(), owner).orElseThrow());
    assertTrue(PruneDecision.keepReason(null, null, owner).isPresent());
  }
}
