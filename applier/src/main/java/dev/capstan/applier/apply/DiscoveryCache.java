package dev.capstan.applier.apply;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Discovery answers kept on disk between runs of the command line, one file per API server and
 * group/version, as kubectl keeps its own: a short-lived command then spends no round trips on
 * kinds it has seen in the last six hours. What is kept, and what a kept answer is good for, is
 * {@link KeptDiscovery}'s rule; a file that cannot be read or written is as if absent.
 */
public record DiscoveryCache(Path dir, Duration ttl, Clock clock) implements KeptDiscovery {

  /** How long an answer is used, as kubectl's default. */
  public static final Duration TTL = Duration.ofHours(6);

  /**
   * The cache of the user running the command: {@code $XDG_CACHE_HOME/capstan/discovery}, else
   * {@code ~/.cache/capstan/discovery}.
   */
  public static DiscoveryCache ofUser() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg == null || xdg.isBlank()
            ? Path.of(System.getProperty("user.home"), ".cache")
            : Path.of(xdg);
    return new DiscoveryCache(base.resolve("capstan").resolve("discovery"), TTL, Clock.systemUTC());
  }

  /** The kept answer for {@code apiVersion} of {@code server}, if written within the TTL. */
  @Override
  public Optional<List<APIResource>> read(
      URL server, String apiVersion, KubernetesSerialization json) {
    if (!KeptDiscovery.keeps(apiVersion)) {
      return Optional.empty();
    }
    Path file = file(server, apiVersion);
    try {
      Instant written = Files.getLastModifiedTime(file).toInstant();
      if (written.plus(ttl).isBefore(clock.instant())) {
        return Optional.empty();
      }
      APIResourceList list =
          json.unmarshal(Files.readString(file, StandardCharsets.UTF_8), APIResourceList.class);
      return list == null || list.getResources() == null || list.getResources().isEmpty()
          ? Optional.empty()
          : Optional.of(list.getResources());
    } catch (IOException | RuntimeException unreadable) {
      return Optional.empty();
    }
  }

  /** Keeps a live answer; written to a temporary file first so a reader never sees half of it. */
  @Override
  public void write(
      URL server, String apiVersion, List<APIResource> resources, KubernetesSerialization json) {
    if (!KeptDiscovery.keeps(apiVersion)) {
      return;
    }
    Path file = file(server, apiVersion);
    Path partial = null;
    try {
      Files.createDirectories(file.getParent());
      APIResourceList list = new APIResourceList();
      list.setGroupVersion(apiVersion);
      list.setResources(resources);
      partial = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".partial");
      Files.writeString(partial, json.asJson(list), StandardCharsets.UTF_8);
      Files.setLastModifiedTime(partial, FileTime.from(clock.instant()));
      Files.move(
          partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException unwritable) {
      deleteQuietly(partial); // the next run asks the API server again
    }
  }

  private static void deleteQuietly(Path partial) {
    try {
      if (partial != null) {
        Files.deleteIfExists(partial);
      }
    } catch (IOException ignored) {
      // a leftover temporary file is never read
    }
  }

  /** One directory per server (host, port and path), one file per group/version. */
  private Path file(URL server, String apiVersion) {
    int port = server.getPort() < 0 ? server.getDefaultPort() : server.getPort();
    String where = server.getHost() + "_" + port + server.getPath();
    return dir.resolve(safe(where)).resolve(safe(apiVersion) + ".json");
  }

  private static String safe(String part) {
    return part.replaceAll("[^A-Za-z0-9.-]", "_");
  }
}
