package dev.capstan.applier.apply;

import dev.capstan.kube.GroupKind;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How revisions are applied, as the engine's operator chose for every Kustomization (Flux's
 * controller flags).
 *
 * @param customStageKinds kinds applied in a stage of their own, after CRDs and Namespaces and
 *     before every other object ({@code --custom-apply-stage-kinds})
 * @param overrideManagers field managers, by name prefix, whose fields on an applied object Capstan
 *     takes over before it applies, so that what it does not apply is removed ({@code
 *     --override-manager}); their Apply and Update entries both count
 */
public record ApplyPolicy(Set<GroupKind> customStageKinds, List<String> overrideManagers) {

  /** No custom stage, no manager overridden. */
  public static final ApplyPolicy DEFAULT = new ApplyPolicy(Set.of(), List.of());

  private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]*");
  private static final Pattern GROUP =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  public ApplyPolicy {
    customStageKinds = Set.copyOf(customStageKinds);
    overrideManagers = List.copyOf(overrideManagers);
  }

  /**
   * The kinds of {@code --custom-apply-stage-kinds}: comma-separated {@code group/Kind}, or {@code
   * Kind} for the core group, e.g. {@code rbac.authorization.k8s.io/Role,ServiceAccount}.
   *
   * @throws IllegalArgumentException naming the entry that is not {@code [group/]Kind}
   */
  public static Set<GroupKind> parseKinds(String text) {
    Set<GroupKind> kinds = new LinkedHashSet<>();
    if (text == null) {
      return kinds;
    }
    for (String item : text.split(",", -1)) {
      String entry = item.strip();
      if (entry.isEmpty()) {
        continue;
      }
      int slash = entry.indexOf('/');
      String group = slash < 0 ? "" : entry.substring(0, slash);
      String kind = entry.substring(slash + 1);
      if (!KIND.matcher(kind).matches() || (slash >= 0 && !GROUP.matcher(group).matches())) {
        throw new IllegalArgumentException(
            "invalid group/kind '"
                + entry
                + "': expected Kind or group/Kind, e.g. ServiceAccount or"
                + " rbac.authorization.k8s.io/Role");
      }
      kinds.add(new GroupKind(group, kind));
    }
    return kinds;
  }

  /** Whether {@code manager} is one whose fields Capstan takes over. */
  public boolean overrides(String manager) {
    return manager != null && overrideManagers.stream().anyMatch(manager::startsWith);
  }
}
