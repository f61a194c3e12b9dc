package dev.capstan.applier.apply;

import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a revision before anything is written: every object names apiVersion, kind and name, no
 * object appears twice, and every kind is served or defined by a CRD of the same revision.
 */
public final class RevisionValidator {

  /** Kinds the API server serves right now. */
  @FunctionalInterface
  public interface ServedKinds {
    Optional<ResourceType> find(String apiVersion, String kind);
  }

  /**
   * The outcome: prepared objects, those whose kind only a CRD of this revision defines (they
   * cannot be listed or dry-run before that CRD exists), and per-object problems.
   */
  public record Validated(
      List<DesiredObject> desired, Set<ObjectRef> awaitingCrd, List<ObjectResult> problems) {

    public boolean valid() {
      return problems.isEmpty();
    }

    /**
     * The objects that cannot be dry-run before part of this revision exists: those awaiting a CRD
     * of it, and those in a Namespace it creates ({@code live} says which exist already).
     */
    public Set<ObjectRef> notYetDryRunnable(LiveObjects live) {
      Set<String> newNamespaces =
          desired.stream()
              .filter(d -> d.isNamespace() && live.get(d.ref()) == null)
              .map(d -> d.ref().name())
              .collect(Collectors.toSet());
      return desired.stream()
          .filter(
              d ->
                  awaitingCrd.contains(d.ref())
                      || (d.type().namespaced() && newNamespaces.contains(d.ref().namespace())))
          .map(DesiredObject::ref)
          .collect(Collectors.toSet());
    }
  }

  private RevisionValidator() {}

  public static Validated validate(
      List<GenericKubernetesResource> objects,
      ServedKinds served,
      Owner owner,
      String defaultNamespace) {
    return validate(objects, served, owner, defaultNamespace, IgnoreRules.NONE);
  }

  /** Validates, preparing each object with the fields {@code ignore} leaves out for it. */
  public static Validated validate(
      List<GenericKubernetesResource> objects,
      ServedKinds served,
      Owner owner,
      String defaultNamespace,
      IgnoreRules ignore) {
    RevisionCrds crds = RevisionCrds.of(objects);
    List<DesiredObject> desired = new ArrayList<>();
    Set<ObjectRef> awaitingCrd = new HashSet<>();
    List<ObjectResult> problems = new ArrayList<>();
    for (int i = 0; i < objects.size(); i++) {
      GenericKubernetesResource object = objects.get(i);
      ObjectRef ref = ObjectRef.of(object);
      Optional<String> missing = missingField(object);
      if (missing.isPresent()) {
        problems.add(
            failed(ref, "object #" + (i + 1) + " (" + describe(ref) + ") has no " + missing.get()));
        continue;
      }
      Optional<ResourceType> type = served.find(object.getApiVersion(), object.getKind());
      boolean fromRevision = false;
      if (type.isEmpty()) {
        type = crds.find(object.getApiVersion(), object.getKind());
        fromRevision = type.isPresent();
      }
      if (type.isEmpty()) {
        problems.add(
            failed(
                ref,
                "unknown kind "
                    + object.getKind()
                    + " in "
                    + object.getApiVersion()
                    + ": not served by the API server and not defined by a CRD in this revision"));
        continue;
      }
      DesiredObject prepared =
          DesiredObject.prepare(object, type.get(), owner, defaultNamespace, ignore);
      desired.add(prepared);
      if (fromRevision) {
        awaitingCrd.add(prepared.ref());
      }
    }
    problems.addAll(duplicates(desired));
    return new Validated(List.copyOf(desired), Set.copyOf(awaitingCrd), List.copyOf(problems));
  }

  private static Optional<String> missingField(GenericKubernetesResource object) {
    if (isBlank(object.getApiVersion())) {
      return Optional.of("apiVersion");
    }
    if (isBlank(object.getKind())) {
      return Optional.of("kind");
    }
    if (object.getMetadata() == null || isBlank(object.getMetadata().getName())) {
      return Optional.of("metadata.name");
    }
    return Optional.empty();
  }

  private static List<ObjectResult> duplicates(List<DesiredObject> desired) {
    Map<ObjectRef, Integer> seen = new HashMap<>();
    desired.forEach(d -> seen.merge(d.ref().withoutVersion(), 1, Integer::sum));
    List<ObjectResult> problems = new ArrayList<>();
    seen.forEach(
        (ref, count) -> {
          if (count > 1) {
            problems.add(failed(ref, "defined " + count + " times in this revision"));
          }
        });
    return problems;
  }

  private static String describe(ObjectRef ref) {
    String kind = ref.kind().isEmpty() ? "<no kind>" : ref.kind();
    String name = ref.name().isEmpty() ? "<no name>" : ref.name();
    return kind + " " + name;
  }

  private static ObjectResult failed(ObjectRef ref, String reason) {
    return new ObjectResult(ref, Action.FAILED, reason);
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
