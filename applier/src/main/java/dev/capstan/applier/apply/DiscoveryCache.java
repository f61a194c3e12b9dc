package dev.capstan.applier.apply;

import dev.capstan.kube.ApiVersion;
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
 * kinds it has seen in the last six hours. A kind missing from a kept answer is looked up live
 * again by {@link ResourceCatalog}, so a kind served since is found. Only built-in groups are kept
 * (the core group, groups without a dot, and {@code *.k8s.io}): they change with the API server's
 * version only, while a CRD's group can be deleted or change scope at any time, so those are always
 * asked live. The cache is an optimisation only: a file that cannot be read or written is as if
 * absent.
 */
public final class DiscoveryCache {

  /** How long an answer is used, as kubectl's default. */
  public static final Duration TTL = Duration.ofHours(6);

  private final Path dir;
  private final Duration ttl;
  private final Clock clock;

  public DiscoveryCache(Path dir, Duration ttl, Clock clock) {
    this.dir = dir;
    this.ttl = ttl;
    this.clock = clock;
  }

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
  Optional<List<APIResource>> read(URL server, String apiVersion, KubernetesSerialization json) {
    if (!keeps(apiVersion)) {
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
  void write(
      URL server, String apiVersion, List<APIResource> resources, KubernetesSerialization json) {
    if (!keeps(apiVersion)) {
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

  /** Whether answers for this group/version are kept: built-in groups only. */
  static boolean keeps(String apiVersion) {
    String group = ApiVersion.of(apiVersion).group();
    return group.isEmpty() || !group.contains(".") || group.endsWith(".k8s.io");
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
