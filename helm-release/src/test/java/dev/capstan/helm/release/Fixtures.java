package dev.capstan.helm.release;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The release Secrets the tests read, from {@code src/test/resources/fixtures}. */
final class Fixtures {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private Fixtures() {}

  /** A Secret as {@code helm} v4.2.1 wrote it: {@code helm-written-v1} or {@code -v2}. */
  static Secret secret(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + name + ".yaml")) {
      return SERIALIZATION.unmarshal(in, Secret.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
