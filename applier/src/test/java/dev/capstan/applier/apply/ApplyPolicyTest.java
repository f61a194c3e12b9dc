package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.kube.GroupKind;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** --custom-apply-stage-kinds and --override-manager as Flux reads them. */
class ApplyPolicyTest {

  @Test
  void kindsAreGroupSlashKindOrAKindOfTheCoreGroup() {
    assertEquals(
        Set.of(
            new GroupKind("rbac.authorization.k8s.io", "Role"),
            new GroupKind("", "ServiceAccount"),
            new GroupKind("cert-manager.io", "ClusterIssuer")),
        ApplyPolicy.parseKinds(
            "rbac.authorization.k8s.io/Role, ServiceAccount,,cert-manager.io/ClusterIssuer"));
    assertEquals(Set.of(), ApplyPolicy.parseKinds(""));
    assertEquals(Set.of(), ApplyPolicy.parseKinds(null));
  }

  @Test
  void anEntryThatIsNoGroupKindIsRefusedNamingIt() {
    for (String bad : List.of("apps/v1/Deployment", "role", "Bad_Group/Role", "/Role")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ApplyPolicy.parseKinds(bad));
      assertTrue(e.getMessage().startsWith("invalid group/kind '" + bad + "'"), e.getMessage());
    }
  }

  @Test
  void managersAreMatchedByNamePrefix() {
    ApplyPolicy policy = new ApplyPolicy(Set.of(), List.of("kubectl", "helm"));
    assertTrue(policy.overrides("kubectl-edit"));
    assertTrue(policy.overrides("helm"));
    assertFalse(policy.overrides("capstan"));
    assertFalse(policy.overrides(null));
    assertFalse(ApplyPolicy.DEFAULT.overrides("kubectl"));
  }
}
