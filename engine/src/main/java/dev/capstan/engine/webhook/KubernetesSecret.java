package dev.capstan.engine.webhook;

import dev.capstan.kube.SecretEntries;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A key of a Kubernetes Secret. Kept for a short while so that a flood of forged requests does not
 * turn into a flood of API reads, and a rotated secret is still picked up soon.
 */
final class KubernetesSecret implements SecretSource {
  static final Duration CACHE_FOR = Duration.ofSeconds(30);

  private final SecretReader secrets;
  private final String namespace;
  private final String name;
  private final String key;
  private final Clock clock;
  private byte[] cached;
  private Instant readAt;

  KubernetesSecret(
      KubernetesClient client, String namespace, String name, String key, Clock clock) {
    this.secrets = new SecretReader(client);
    this.namespace = namespace;
    this.name = name;
    this.key = key;
    this.clock = clock;
  }

  @Override
  public synchronized byte[] secret() {
    Instant now = clock.instant();
    if (cached == null || Duration.between(readAt, now).compareTo(CACHE_FOR) > 0) {
      cached = read();
      readAt = now;
    }
    return cached.clone();
  }

  private byte[] read() {
    byte[] value = readKey();
    if (value.length == 0) {
      throw new IllegalStateException(describe() + " is empty");
    }
    return value;
  }

  private byte[] readKey() {
    SecretEntries entries;
    try {
      entries = secrets.read(namespace, name);
    } catch (SecretUnavailable e) {
      throw new IllegalStateException(e.getMessage() + " (key " + key + ")");
    }
    return entries
        .text(key)
        .map(value -> value.strip().getBytes(StandardCharsets.UTF_8))
        .orElseThrow(() -> new IllegalStateException(describe() + " has no key '" + key + "'"));
  }

  @Override
  public String describe() {
    return "Secret " + namespace + "/" + name + " (key " + key + ")";
  }
}
