package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.ValuesReference;
import java.util.Map;
import java.util.Optional;

/** Where the ConfigMaps and Secrets a HelmRelease's {@code valuesFrom} names are read. */
interface ValuesSource {

  /**
   * The data of the object {@code kind namespace/name}, by key; empty when it does not exist.
   *
   * @throws ValuesFailure when it cannot be read (refused, unreachable, malformed)
   */
  Optional<Map<String, byte[]>> data(ValuesReference.Kind kind, String namespace, String name)
      throws ValuesFailure;
}
