package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.MutableClock;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiscoveryCacheTest {

  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final List<APIResource> CORE =
      List.of(
          new APIResourceBuilder()
              .withName("configmaps")
              .withKind("ConfigMap")
              .withNamespaced(true)
              .build(),
          new APIResourceBuilder()
              .withName("namespaces")
              .withKind("Namespace")
              .withNamespaced(false)
              .build());

  @TempDir Path dir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

  private DiscoveryCache cache() {
    return new DiscoveryCache(dir, Duration.ofHours(6), clock);
  }

  @Test
  void keepsAnAnswerPerServerAndGroupVersionUntilItsTimeIsUp() throws Exception {
    URL server = new URL("https://10.0.0.1:6443");
    cache().write(server, "v1", CORE, JSON);

    List<APIResource> read = cache().read(server, "v1", JSON).orElseThrow();
    assertEquals(
        List.of("configmaps", "namespaces"), read.stream().map(APIResource::getName).toList());
    assertEquals(true, read.get(0).getNamespaced());
    assertEquals(false, read.get(1).getNamespaced());
    assertTrue(cache().read(server, "apps/v1", JSON).isEmpty(), "another group/version");
    assertTrue(
        cache().read(new URL("https://10.0.0.2:6443"), "v1", JSON).isEmpty(), "another server");

    clock.advance(Duration.ofHours(5));
    assertTrue(cache().read(server, "v1", JSON).isPresent(), "within six hours");
    clock.advance(Duration.ofHours(2));
    assertTrue(cache().read(server, "v1", JSON).isEmpty(), "older than six hours");
  }

  @Test
  void keepsBuiltInGroupsOnlySinceACustomResourceDefinitionCanChangeAtAnyTime() throws Exception {
    URL server = new URL("https://10.0.0.1:6443");
    for (String builtIn :
        List.of("v1", "apps/v1", "networking.k8s.io/v1", "apiextensions.k8s.io/v1")) {
      cache().write(server, builtIn, CORE, JSON);
      assertTrue(cache().read(server, builtIn, JSON).isPresent(), builtIn);
    }
    for (String custom : List.of("example.com/v1", "kustomize.toolkit.fluxcd.io/v1")) {
      cache().write(server, custom, CORE, JSON);
      assertTrue(cache().read(server, custom, JSON).isEmpty(), custom);
    }
  }

  @Test
  void anUnreadableFileIsAsIfAbsent() throws IOException {
    URL server = new URL("https://10.0.0.1:6443");
    cache().write(server, "apps/v1", CORE, JSON);
    try (var files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.writeString(file, "{not json");
      }
    }
    assertTrue(cache().read(server, "apps/v1", JSON).isEmpty());
  }

  @Test
  void aCacheItCannotWriteIsIgnored() throws IOException {
    Path file = dir.resolve("occupied");
    Files.writeString(file, "a file where the cache directory would be");
    DiscoveryCache blocked = new DiscoveryCache(file, Duration.ofHours(6), clock);
    URL server = new URL("https://10.0.0.1:6443");
    blocked.write(server, "v1", CORE, JSON);
    assertTrue(blocked.read(server, "v1", JSON).isEmpty());
  }
}
