package dev.capstan.engine.conditions;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The drift one reconcile found: objects another writer changed or deleted, reported rather than
 * corrected ({@code spec.driftDetection.mode: warn}).
 *
 * @param reported whether drift is reported at all (false in the other modes: no Drifted condition)
 * @param objects the drifted objects, sorted by reference
 */
public record Drift(boolean reported, List<DriftedObject> objects) {

  /** Drift is not reported (mode enabled or disabled). */
  public static final Drift NOT_REPORTED = new Drift(false, List.of());

  /**
   * One drifted object.
   *
   * @param ref {@code Kind/namespace/name}
   * @param what how it drifted, when no field can say it (deleted, could not be compared)
   * @param fields JSON Pointers of the fields another writer changed, sorted
   */
  public record DriftedObject(String ref, String what, List<String> fields) {
    public DriftedObject {
      Objects.requireNonNull(ref, "ref");
      what = what == null ? "" : what;
      fields = fields == null ? List.of() : List.copyOf(fields);
    }
  }

  public Drift {
    objects = objects.stream().sorted(Comparator.comparing(DriftedObject::ref)).toList();
  }

  /** At most this many objects are named in the message, at most so many fields of each. */
  static final int MAX_OBJECTS = 10;

  static final int MAX_FIELDS = 5;

  /**
   * The Drifted condition's message: each object with its fields, sorted, bounded; e.g. {@code 2
   * objects drifted: ConfigMap/apps/settings: /data/mode; Deployment/apps/web: deleted from the
   * cluster}.
   */
  public String message() {
    StringBuilder out =
        new StringBuilder()
            .append(objects.size())
            .append(objects.size() == 1 ? " object drifted: " : " objects drifted: ");
    for (int i = 0; i < Math.min(MAX_OBJECTS, objects.size()); i++) {
      DriftedObject object = objects.get(i);
      out.append(i == 0 ? "" : "; ").append(object.ref()).append(": ");
      if (object.fields().isEmpty()) {
        out.append(object.what());
        continue;
      }
      List<String> fields = object.fields();
      out.append(String.join(", ", fields.subList(0, Math.min(MAX_FIELDS, fields.size()))));
      if (fields.size() > MAX_FIELDS) {
        out.append(" and ").append(fields.size() - MAX_FIELDS).append(" more");
      }
    }
    if (objects.size() > MAX_OBJECTS) {
      out.append("; and ").append(objects.size() - MAX_OBJECTS).append(" more objects");
    }
    return out.toString();
  }

  /** The drift found in warn mode. */
  public static Drift reported(List<DriftedObject> objects) {
    return new Drift(true, objects);
  }
}
