package dev.capstan.cli.faults;

import dev.capstan.source.oci.ArtifactPusher;
import dev.capstan.source.oci.ArtifactPusher.Push;
import dev.capstan.source.oci.OciUrl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The registry side's artifact and its model: M Kustomizations' directories ({@code o0} ... ) of
 * four ConfigMaps each, pushed (tag {@value RegistrySide#TAG}) on each change as {@code capstan
 * push artifact} pushes ({@link ArtifactPusher}), and what the latest push holds. A removed
 * object's name is never used again, as on the Git side. The artifact also holds a few KiB of
 * random text outside the Kustomizations' directories, so that its layer is longer than what a
 * truncating proxy lets through.
 */
final class RegistryArtifact {
  private static final int PADDING_BYTES = 6 * 1024;
  private static final Duration PUSH_TIMEOUT = Duration.ofSeconds(30);

  private final Path dir;
  private final String target;
  private final Random random;
  private final Clock clock;
  private final ArtifactPusher pusher;
  private final Map<String, TreeMap<String, String>> model = new TreeMap<>();
  private final Map<String, Instant> removedAt = new ConcurrentHashMap<>();
  private int nextObject;
  private int pushes;
  private String revision;

  /**
   * @param dir where the artifact's files are laid out
   * @param target where it is pushed ({@code oci://host/repository:tag})
   */
  RegistryArtifact(Path dir, String target, Random random, Clock clock) {
    this.dir = dir;
    this.target = target;
    this.random = random;
    this.clock = clock;
    this.pusher = new ArtifactPusher(clock);
  }

  /** Lays out {@code count} Kustomizations' directories and pushes them. */
  synchronized void first(int count) throws IOException {
    byte[] padding = new byte[PADDING_BYTES];
    random.nextBytes(padding);
    write("padding.txt", Base64.getEncoder().encodeToString(padding) + "\n");
    for (int i = 0; i < count; i++) {
      model.put(RegistrySide.name(i), new TreeMap<>());
      for (int o = 0; o < FaultWorkload.OBJECTS; o++) {
        addObject(RegistrySide.name(i));
      }
    }
    push();
  }

  /**
   * One change to one Kustomization's directory (an object changed, added or removed), pushed.
   * Returns the revision of this push (later pushes may follow at once).
   */
  synchronized String pushChange() throws IOException {
    List<String> names = new ArrayList<>(model.keySet());
    String owner = names.get(random.nextInt(names.size()));
    TreeMap<String, String> objects = model.get(owner);
    int dice = random.nextInt(3);
    if (dice == 1 || objects.size() <= 1) {
      addObject(owner);
    } else if (dice == 2) {
      String gone = new ArrayList<>(objects.keySet()).get(random.nextInt(objects.size()));
      // Noted before the push: any deletion the engine makes follows it.
      removedAt.putIfAbsent(gone, clock.instant());
      objects.remove(gone);
      Files.delete(dir.resolve(owner).resolve(gone + ".yaml"));
    } else {
      String changed = new ArrayList<>(objects.keySet()).get(random.nextInt(objects.size()));
      writeObject(owner, changed, Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
    }
    return push();
  }

  /** The Kustomizations' names. */
  synchronized List<String> names() {
    return List.copyOf(model.keySet());
  }

  /** Per Kustomization, the latest artifact's revision. */
  synchronized Map<String, String> revisions() {
    Map<String, String> revisions = new TreeMap<>();
    model.keySet().forEach(name -> revisions.put(name, revision));
    return revisions;
  }

  /** Per Kustomization, its objects and their values in the latest artifact. */
  synchronized Map<String, Map<String, String>> expected() {
    Map<String, Map<String, String>> copy = new TreeMap<>();
    model.forEach((name, objects) -> copy.put(name, Map.copyOf(objects)));
    return copy;
  }

  Map<String, Instant> removedAt() {
    return Map.copyOf(removedAt);
  }

  private String push() throws IOException {
    pushes++;
    ArtifactPusher.Pushed pushed =
        pusher.push(
            new Push(
                OciUrl.parseTagged(target),
                dir,
                "https://faults.example.invalid/workload",
                "push-" + pushes,
                null,
                null,
                Map.of(),
                Optional.empty(),
                true,
                null,
                clock.instant().plus(PUSH_TIMEOUT)));
    revision = RegistrySide.TAG + "@" + pushed.digest();
    return revision;
  }

  private void addObject(String owner) throws IOException {
    String object = owner + "-o" + nextObject++;
    writeObject(owner, object, Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
  }

  private void writeObject(String owner, String object, String value) throws IOException {
    model.get(owner).put(object, value);
    write(
        owner + "/" + object + ".yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  value: \"%s\"\n"
            .formatted(object, value));
  }

  private void write(String file, String text) throws IOException {
    Path path = dir.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }
}
