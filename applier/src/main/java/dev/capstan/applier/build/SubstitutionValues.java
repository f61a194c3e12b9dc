package dev.capstan.applier.build;

import java.util.Map;
import java.util.Optional;

/**
 * Reads the variables of a {@code substituteFrom} entry; the engine implements it with ConfigMaps
 * and Secrets from the cluster (Secret values already decoded), tests with plain maps.
 */
@FunctionalInterface
public interface SubstitutionValues {

  /** The key/value pairs of the referenced object, or empty when it does not exist. */
  Optional<Map<String, String>> find(SubstituteReference reference);

  /** A source in which nothing exists. */
  static SubstitutionValues none() {
    return reference -> Optional.empty();
  }
}
