package dev.capstan.health.status;

import java.util.List;
import java.util.Map;

/**
 * The conditions that carry their own {@code observedGeneration}, each judged against the object's
 * {@code metadata.generation}. Controllers that set conditions one at a time leave a condition they
 * did not write again at the generation it was last written for (a test result after a release
 * without tests, a progress condition set only while creating), so a condition behind the object's
 * generation does not by itself say the controller has not seen the current spec. The object is
 * behind when its Ready condition is, or when every condition that carries a generation is;
 * otherwise the conditions behind are left out, since they describe an older spec.
 */
final class ConditionGenerations {
  private final long generation;
  // For each condition, whether it carries an observedGeneration below the object's. Never
  // handed out, so the instance stays immutable.
  private final boolean[] behind;
  // The condition that makes the object behind (the Ready condition, else the first one behind),
  // or -1 when the object is not behind.
  private final int decisive;

  private ConditionGenerations(long generation, boolean[] behind, int decisive) {
    this.generation = generation;
    this.behind = behind;
    this.decisive = decisive;
  }

  /** Null when no condition carries an observedGeneration or the object has no generation. */
  static ConditionGenerations of(ObjectView object) {
    List<?> conditions = object.rawConditions();
    boolean[] behind = null;
    long generation = 0;
    boolean anyCurrent = false;
    int firstBehind = -1;
    int readyBehind = -1;
    for (int i = 0; i < conditions.size(); i++) {
      // Most conditions carry no observedGeneration: the object's generation is looked up only
      // when one does.
      if (!(conditions.get(i) instanceof Map<?, ?> condition)
          || !(condition.get("observedGeneration") instanceof Number observed)) {
        continue;
      }
      if (behind == null) {
        if (!(object.object().get("metadata") instanceof Map<?, ?> metadata)
            || !(metadata.get("generation") instanceof Number objectGeneration)) {
          return null;
        }
        generation = objectGeneration.longValue();
        behind = new boolean[conditions.size()];
      }
      if (observed.longValue() < generation) {
        behind[i] = true;
        firstBehind = firstBehind < 0 ? i : firstBehind;
        readyBehind = readyBehind < 0 && "Ready".equals(condition.get("type")) ? i : readyBehind;
      } else {
        anyCurrent = true;
      }
    }
    if (behind == null) {
      return null;
    }
    int decisive = readyBehind >= 0 ? readyBehind : anyCurrent ? -1 : firstBehind;
    return new ConditionGenerations(generation, behind, decisive);
  }

  /** Whether the i-th condition describes an older generation than the object's. */
  boolean isBehind(int index) {
    return index < behind.length && behind[index];
  }

  /** InProgress naming the decisive condition when the object is behind, else null. */
  ResourceStatus objectBehind(ObjectView object) {
    if (decisive < 0) {
      return null;
    }
    Map<?, ?> condition = (Map<?, ?>) object.rawConditions().get(decisive);
    String type = condition.get("type") instanceof String t ? t : "a";
    long observed = ((Number) condition.get("observedGeneration")).longValue();
    return ResourceStatus.inProgress(
        GenerationCheck.REASON,
        type
            + " condition describes generation "
            + observed
            + ", but the object is at generation "
            + generation);
  }
}
