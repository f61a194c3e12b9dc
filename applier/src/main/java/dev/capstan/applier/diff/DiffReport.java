package dev.capstan.applier.diff;

import java.util.List;

/** The diff of a whole revision against the cluster, one entry per object in revision order. */
public record DiffReport(List<ObjectDiff> objects) {

  public DiffReport {
    objects = List.copyOf(objects);
  }

  public boolean hasChanges() {
    return objects.stream().anyMatch(ObjectDiff::changes);
  }

  public boolean hasFailures() {
    return objects.stream().anyMatch(d -> d.change() == ObjectDiff.Change.FAILED);
  }
}
