package dev.capstan.applier.apply;

import dev.capstan.applier.common.CapstanMetadata;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * An object's managedFields with the entries of the managers Capstan overrides ({@code
 * --override-manager}) taken over by Capstan's own Apply entry: their fields are merged into it and
 * the entries dropped. Capstan then owns those fields alone, so its next apply removes the ones it
 * does not apply and sets the rest to what it applies. Pure.
 *
 * <p>{@link #transfer} does the same between any two managers: a migration from another GitOps
 * controller hands its fields to Capstan (or back) before the new owner's first apply.
 */
public final class ManagedFieldsTakeover {
  private static final String APPLY = "Apply";
  private static final String UPDATE = "Update";

  private ManagedFieldsTakeover() {}

  /** Whether any entry belongs to a manager the policy overrides. */
  static boolean needed(List<ManagedFieldsEntry> entries, ApplyPolicy policy) {
    return needed(entries, policy::overrides, CapstanMetadata.FIELD_MANAGER);
  }

  private static boolean needed(
      List<ManagedFieldsEntry> entries, Predicate<String> from, String to) {
    return entries != null && entries.stream().anyMatch(e -> overridden(e, from, to));
  }

  /** The entries after the takeover; empty when no manager of theirs is overridden. */
  static Optional<List<ManagedFieldsEntry>> of(
      List<ManagedFieldsEntry> entries, ApplyPolicy policy) {
    return of(entries, policy::overrides, CapstanMetadata.FIELD_MANAGER);
  }

  /**
   * The JSON patch that replaces an object's managed fields with {@code entries} only if the object
   * is still at {@code resourceVersion}: a write made meanwhile makes it fail rather than be
   * overwritten.
   */
  public static List<Map<String, Object>> guardedReplacement(
      String resourceVersion, List<ManagedFieldsEntry> entries) {
    return List.of(
        Map.of("op", "test", "path", "/metadata/resourceVersion", "value", resourceVersion),
        Map.of("op", "replace", "path", "/metadata/managedFields", "value", entries));
  }

  /**
   * The entries after manager {@code to} took over every field of manager {@code from} (its Apply
   * and Update entries of the main resource) into its own Apply entry; empty when {@code from} has
   * none.
   */
  public static Optional<List<ManagedFieldsEntry>> transfer(
      List<ManagedFieldsEntry> entries, String from, String to) {
    return of(entries, from::equals, to);
  }

  private static Optional<List<ManagedFieldsEntry>> of(
      List<ManagedFieldsEntry> entries, Predicate<String> from, String to) {
    if (!needed(entries, from, to)) {
      return Optional.empty();
    }
    ManagedFieldsEntry ours = entries.stream().filter(e -> ours(e, to)).findFirst().orElse(null);
    List<ManagedFieldsEntry> kept = new ArrayList<>();
    for (ManagedFieldsEntry entry : entries) {
      if (entry == ours) {
        continue;
      }
      if (!overridden(entry, from, to)) {
        kept.add(entry);
      } else if (ours == null) {
        ours = new ManagedFieldsEntryBuilder(entry).withManager(to).withOperation(APPLY).build();
      } else {
        ours =
            new ManagedFieldsEntryBuilder(ours)
                .withFieldsV1(fieldsV1(union(fields(ours), fields(entry))))
                .build();
      }
    }
    kept.add(ours);
    return Optional.of(List.copyOf(kept));
  }

  private static boolean ours(ManagedFieldsEntry entry, String manager) {
    return manager.equals(entry.getManager())
        && APPLY.equals(entry.getOperation())
        && noSubresource(entry);
  }

  private static boolean overridden(ManagedFieldsEntry entry, Predicate<String> from, String to) {
    return !ours(entry, to)
        && noSubresource(entry)
        && (APPLY.equals(entry.getOperation()) || UPDATE.equals(entry.getOperation()))
        && entry.getManager() != null
        && from.test(entry.getManager());
  }

  private static boolean noSubresource(ManagedFieldsEntry entry) {
    return entry.getSubresource() == null || entry.getSubresource().isEmpty();
  }

  private static Map<String, Object> fields(ManagedFieldsEntry entry) {
    return entry.getFieldsV1() == null || entry.getFieldsV1().getAdditionalProperties() == null
        ? Map.of()
        : entry.getFieldsV1().getAdditionalProperties();
  }

  private static FieldsV1 fieldsV1(Map<String, Object> fields) {
    FieldsV1 out = new FieldsV1();
    out.setAdditionalProperties(fields);
    return out;
  }

  /** The union of two field sets ({@code f:}, {@code k:}, {@code v:}, {@code i:} and {@code .}). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> union(Map<String, Object> a, Map<String, Object> b) {
    Map<String, Object> out = new LinkedHashMap<>(a);
    for (Map.Entry<String, Object> field : b.entrySet()) {
      Object mine = out.get(field.getKey());
      if (mine instanceof Map<?, ?> left && field.getValue() instanceof Map<?, ?> right) {
        out.put(field.getKey(), union((Map<String, Object>) left, (Map<String, Object>) right));
      } else if (mine == null) {
        out.put(field.getKey(), field.getValue());
      }
    }
    return out;
  }
}
