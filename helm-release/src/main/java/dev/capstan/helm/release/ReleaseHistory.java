package dev.capstan.helm.release;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** The records of one release name in one storage namespace, oldest version first. */
public record ReleaseHistory(String namespace, String name, List<ReleaseRecord> records) {

  public ReleaseHistory {
    records = records.stream().sorted(Comparator.comparingInt(r -> r.release().version())).toList();
  }

  /** The record of the highest version, if there is any. */
  public Optional<ReleaseRecord> latest() {
    return records.isEmpty() ? Optional.empty() : Optional.of(records.get(records.size() - 1));
  }

  /** The deployed record of the highest version, as Helm's {@code Deployed} finds it. */
  public Optional<ReleaseRecord> lastDeployed() {
    return records.stream()
        .filter(r -> r.release().status() == ReleaseStatus.DEPLOYED)
        .reduce((older, newer) -> newer);
  }

  /** The version a new record of this release takes: one past the highest. */
  public int nextVersion() {
    return latest().map(r -> r.release().version() + 1).orElse(1);
  }

  /**
   * The oldest records past the {@code keep} newest, leaving out the last deployed one, which Helm
   * never prunes: what is deleted to keep at most {@code keep} (a negative one keeps all).
   */
  public List<ReleaseRecord> beyond(int keep) {
    if (keep < 0 || records.size() <= keep) {
      return List.of();
    }
    Optional<ReleaseRecord> deployed = lastDeployed();
    List<ReleaseRecord> prunable = new ArrayList<>();
    for (ReleaseRecord record : records) {
      if (records.size() - prunable.size() == keep) {
        break;
      }
      if (deployed.isEmpty() || !deployed.get().equals(record)) {
        prunable.add(record);
      }
    }
    return List.copyOf(prunable);
  }

  public boolean isEmpty() {
    return records.isEmpty();
  }
}
