package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fields of overridden managers merged into Capstan's Apply entry, their entries dropped. */
class ManagedFieldsTakeoverTest {
  private static final ApplyPolicy OVERRIDE_KUBECTL = new ApplyPolicy(Set.of(), List.of("kubectl"));

  private static ManagedFieldsEntry entry(
      String manager, String operation, String subresource, String fieldsJson) {
    FieldsV1 fields = new FieldsV1();
    @SuppressWarnings("unchecked")
    Map<String, Object> map = Serialization.unmarshal(fieldsJson, Map.class);
    fields.setAdditionalProperties(map);
    return new ManagedFieldsEntryBuilder()
        .withManager(manager)
        .withOperation(operation)
        .withSubresource(subresource)
        .withApiVersion("v1")
        .withFieldsType("FieldsV1")
        .withFieldsV1(fields)
        .build();
  }

  private static final ManagedFieldsEntry OURS =
      entry("capstan", "Apply", null, "{\"f:data\":{\"f:a\":{}}}");
  private static final ManagedFieldsEntry EDIT =
      entry("kubectl-edit", "Update", null, "{\"f:data\":{\"f:b\":{}},\"f:metadata\":{}}");
  private static final ManagedFieldsEntry STATUS =
      entry("kubectl-patch", "Update", "status", "{\"f:status\":{}}");
  private static final ManagedFieldsEntry OTHER =
      entry("kube-controller-manager", "Update", null, "{\"f:data\":{\"f:c\":{}}}");

  @Test
  void anOverriddenManagersFieldsJoinCapstansEntryAndItsEntryGoes() {
    Optional<List<ManagedFieldsEntry>> next =
        ManagedFieldsTakeover.of(List.of(OURS, EDIT, STATUS, OTHER), OVERRIDE_KUBECTL);

    assertTrue(next.isPresent());
    List<ManagedFieldsEntry> entries = next.get();
    assertEquals(
        List.of("kubectl-patch", "kube-controller-manager", "capstan"),
        entries.stream().map(ManagedFieldsEntry::getManager).toList());
    assertEquals(
        Map.of("f:data", Map.of("f:a", Map.of(), "f:b", Map.of()), "f:metadata", Map.of()),
        entries.get(2).getFieldsV1().getAdditionalProperties());
    assertEquals("Apply", entries.get(2).getOperation());
  }

  @Test
  void withoutAnEntryOfItsOwnCapstanTakesTheFirstOverriddenOne() {
    ManagedFieldsEntry apply = entry("kubectl", "Apply", null, "{\"f:data\":{\"f:x\":{}}}");

    List<ManagedFieldsEntry> entries =
        ManagedFieldsTakeover.of(List.of(apply, EDIT), OVERRIDE_KUBECTL).orElseThrow();

    assertEquals(1, entries.size());
    assertEquals("capstan", entries.get(0).getManager());
    assertEquals("Apply", entries.get(0).getOperation());
    assertEquals(
        Map.of("f:data", Map.of("f:x", Map.of(), "f:b", Map.of()), "f:metadata", Map.of()),
        entries.get(0).getFieldsV1().getAdditionalProperties());
  }

  @Test
  void nothingToTakeOverIsNoPatch() {
    assertFalse(ManagedFieldsTakeover.needed(List.of(OURS, STATUS, OTHER), OVERRIDE_KUBECTL));
    assertEquals(
        Optional.empty(), ManagedFieldsTakeover.of(List.of(OURS, EDIT), ApplyPolicy.DEFAULT));
    assertFalse(ManagedFieldsTakeover.needed(null, OVERRIDE_KUBECTL));
  }

  @Test
  void transferHandsOneNamedManagersFieldsToAnotherAndBack() {
    ManagedFieldsEntry flux =
        entry("kustomize-controller", "Apply", null, "{\"f:data\":{\"f:a\":{},\"f:b\":{}}}");

    List<ManagedFieldsEntry> taken =
        ManagedFieldsTakeover.transfer(
                List.of(flux, STATUS, OTHER), "kustomize-controller", "capstan")
            .orElseThrow();

    assertEquals(
        List.of("kubectl-patch", "kube-controller-manager", "capstan"),
        taken.stream().map(ManagedFieldsEntry::getManager).toList());
    assertEquals(
        Map.of("f:data", Map.of("f:a", Map.of(), "f:b", Map.of())),
        taken.get(2).getFieldsV1().getAdditionalProperties());
    assertEquals(
        Optional.empty(), ManagedFieldsTakeover.transfer(taken, "kustomize-controller", "capstan"));
    List<ManagedFieldsEntry> back =
        ManagedFieldsTakeover.transfer(taken, "capstan", "kustomize-controller").orElseThrow();
    assertEquals("kustomize-controller", back.get(2).getManager());
    assertEquals(
        Optional.empty(),
        ManagedFieldsTakeover.transfer(List.of(STATUS), "kubectl-patch", "capstan"),
        "a status entry stays with its writer");
  }
}
