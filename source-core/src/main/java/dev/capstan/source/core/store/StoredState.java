package dev.capstan.source.core.store;

import dev.capstan.source.core.IncludedRevision;
import dev.capstan.source.core.Verified;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What the store remembers about one source between fetches.
 *
 * @param sourceId hash of URL, ref and ignore rules: a change to any of them means a new artifact
 * @param remoteId the object id the remote ref pointed at when the artifact was made
 * @param previousDigest the digest published before this one; kept so readers that still hold the
 *     previous path can finish
 * @param metadata upstream information kept with the artifact (an OCI manifest's annotations)
 */
public record StoredState(
    String sourceId,
    String remoteId,
    String revision,
    String digest,
    Instant lastUpdateTime,
    String previousDigest,
    Optional<Verified> verified,
    List<IncludedRevision> included,
    Map<String, String> metadata) {

  public StoredState {
    verified = verified == null ? Optional.empty() : verified;
    included = included == null ? List.of() : List.copyOf(included);
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
  }

  public StoredState(
      String sourceId,
      String remoteId,
      String revision,
      String digest,
      Instant lastUpdateTime,
      String previousDigest) {
    this(
        sourceId,
        remoteId,
        revision,
        digest,
        lastUpdateTime,
        previousDigest,
        Optional.empty(),
        List.of(),
        Map.of());
  }

  /**
   * This state as the one that follows {@code previous}: the time of the last update is kept while
   * revision and digest stay the same, and the digest it replaces is kept for readers that still
   * hold its path (or, when the digest stays, the one {@code previous} replaced).
   */
  public StoredState after(Optional<StoredState> previous) {
    Instant updated =
        previous
            .filter(p -> p.revision().equals(revision) && p.digest().equals(digest))
            .map(StoredState::lastUpdateTime)
            .orElse(lastUpdateTime);
    String replaced =
        previous
            .map(StoredState::digest)
            .filter(d -> !d.equals(digest))
            .orElse(previous.flatMap(StoredState::previous).orElse(null));
    return new StoredState(
        sourceId, remoteId, revision, digest, updated, replaced, verified, included, metadata);
  }

  public Optional<String> previous() {
    return Optional.ofNullable(previousDigest);
  }

  static Optional<StoredState> read(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
      Optional<Verified> verified =
          Optional.ofNullable(p.getProperty("verifiedMode"))
              .map(mode -> new Verified(mode, p.getProperty("verifiedMessage", "")));
      List<IncludedRevision> included = new ArrayList<>();
      for (int i = 0; p.getProperty("include." + i + ".name") != null; i++) {
        String at = "include." + i + ".";
        included.add(
            new IncludedRevision(
                p.getProperty(at + "name"),
                p.getProperty(at + "revision"),
                p.getProperty(at + "digest"),
                p.getProperty(at + "toPath")));
      }
      return Optional.of(
          new StoredState(
              p.getProperty("sourceId"),
              p.getProperty("remoteId"),
              p.getProperty("revision"),
              p.getProperty("digest"),
              Instant.parse(p.getProperty("lastUpdateTime")),
              p.getProperty("previousDigest"),
              verified,
              included,
              metadataOf(p)));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // unreadable state only costs a re-fetch
    }
  }

  /** Writes via a temporary file and a rename, so a reader sees the old or the new state. */
  void write(Path file) throws IOException {
    Properties p = new Properties();
    p.setProperty("sourceId", sourceId);
    p.setProperty("remoteId", remoteId);
    p.setProperty("revision", revision);
    p.setProperty("digest", digest);
    p.setProperty("lastUpdateTime", lastUpdateTime.toString());
    if (previousDigest != null) {
      p.setProperty("previousDigest", previousDigest);
    }
    verified.ifPresent(
        v -> {
          p.setProperty("verifiedMode", v.mode());
          p.setProperty("verifiedMessage", v.message());
        });
    for (int i = 0; i < included.size(); i++) {
      IncludedRevision inc = included.get(i);
      String at = "include." + i + ".";
      p.setProperty(at + "name", inc.name());
      p.setProperty(at + "revision", inc.revision());
      p.setProperty(at + "digest", inc.digest());
      p.setProperty(at + "toPath", inc.toPath());
    }
    int i = 0;
    for (var entry : new TreeMap<>(metadata).entrySet()) {
      p.setProperty("metadata." + i + ".key", entry.getKey());
      p.setProperty("metadata." + i + ".value", entry.getValue());
      i++;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(tmp)) {
      p.store(out, null);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static Map<String, String> metadataOf(Properties p) {
    Map<String, String> metadata = new HashMap<>();
    for (int i = 0; p.getProperty("metadata." + i + ".key") != null; i++) {
      metadata.put(
          p.getProperty("metadata." + i + ".key"), p.getProperty("metadata." + i + ".value", ""));
    }
    return metadata;
  }
}
