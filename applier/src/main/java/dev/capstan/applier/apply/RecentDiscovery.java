package dev.capstan.applier.apply;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.URL;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Discovery answers of built-in groups kept in memory for a short while, for an applier that
 * applies again and again (the engine): a thousand Kustomizations applied within a minute then ask
 * the API server once which kinds the core group serves, not a thousand times. The time is short so
 * that an API server upgraded under the engine is believed again within it.
 */
public final class RecentDiscovery implements KeptDiscovery {

  /** How long the engine believes an answer. */
  public static final Duration TTL = Duration.ofMinutes(1);

  private final Duration ttl;
  private final Clock clock;
  private final Map<String, Kept> answers = new ConcurrentHashMap<>();

  private record Kept(List<APIResource> resources, Instant at) {}

  public RecentDiscovery(Duration ttl, Clock clock) {
    this.ttl = ttl;
    this.clock = clock;
  }

  @Override
  public Optional<List<APIResource>> read(
      URL server, String apiVersion, KubernetesSerialization json) {
    Kept kept = answers.get(key(server, apiVersion));
    if (kept == null || kept.at().plus(ttl).isBefore(clock.instant())) {
      return Optional.empty();
    }
    return Optional.of(kept.resources());
  }

  @Override
  public void write(
      URL server, String apiVersion, List<APIResource> resources, KubernetesSerialization json) {
    if (KeptDiscovery.keeps(apiVersion)) {
      answers.put(key(server, apiVersion), new Kept(List.copyOf(resources), clock.instant()));
    }
  }

  private static String key(URL server, String apiVersion) {
    return server.toExternalForm() + " " + apiVersion;
  }
}
