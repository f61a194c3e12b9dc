package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.MutableClock;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecentDiscoveryTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final List<APIResource> CORE =
      List.of(
          new APIResourceBuilder()
              .withName("configmaps")
              .withKind("ConfigMap")
              .withNamespaced(true)
              .build());

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final RecentDiscovery recent = new RecentDiscovery(Duration.ofMinutes(1), clock);

  @Test
  void believesAnAnswerPerServerAndGroupVersionForItsTimeOnly() throws Exception {
    URL server = new URL("https://10.0.0.1:6443");
    recent.write(server, "v1", CORE, JSON);

    assertEquals(CORE, recent.read(server, "v1", JSON).orElseThrow());
    assertTrue(recent.read(server, "apps/v1", JSON).isEmpty(), "another group/version");
    assertTrue(
        recent.read(new URL("https://10.0.0.2:6443"), "v1", JSON).isEmpty(), "another server");

    clock.advance(Duration.ofSeconds(59));
    assertTrue(recent.read(server, "v1", JSON).isPresent(), "within the minute");
    clock.advance(Duration.ofSeconds(2));
    assertTrue(recent.read(server, "v1", JSON).isEmpty(), "older than a minute");
  }

  @Test
  void keepsBuiltInGroupsOnlySinceACustomResourceDefinitionCanChangeAtAnyTime() throws Exception {
    URL server = new URL("https://10.0.0.1:6443");
    for (String builtIn : List.of("v1", "apps/v1", "networking.k8s.io/v1")) {
      recent.write(server, builtIn, CORE, JSON);
      assertTrue(recent.read(server, builtIn, JSON).isPresent(), builtIn);
    }
    for (String custom : List.of("example.com/v1", "kustomize.toolkit.fluxcd.io/v1")) {
      recent.write(server, custom, CORE, JSON);
      assertTrue(recent.read(server, custom, JSON).isEmpty(), custom);
    }
  }

  @Test
  void anAnswerChangedByItsWriterAfterwardsIsNotChangedInTheStore() throws Exception {
    URL server = new URL("https://10.0.0.1:6443");
    List<APIResource> answer = new ArrayList<>(CORE);
    recent.write(server, "v1", answer, JSON);
    answer.clear();
    assertEquals(CORE, recent.read(server, "v1", JSON).orElseThrow());
  }
}
