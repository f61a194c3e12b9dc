package dev.capstan.cli.faults;

import dev.capstan.engine.testing.GitHttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * The fault bench's repository: N Kustomizations' directories ({@code k0} ... ) of four ConfigMaps
 * each, served over smart HTTP, and a model of what its latest commit holds. Every 50th
 * Kustomization (the last one below 50) fails on purpose: its kustomization.yaml names a missing
 * file. Commits change, add or remove one object; a removed object's name is never used again, so a
 * deletion can be told legitimate from the time its object left the repository.
 */
public final class FaultWorkload implements AutoCloseable {
  public static final int OBJECTS = 4;
  private static final PersonIdent AUTHOR = new PersonIdent("Fault Bench", "bench@example.invalid");

  private final Path dir;
  private final Git git;
  private final GitHttpServer server;
  private final Random random;
  private final int count;
  private final Map<String, TreeMap<String, String>> model = new TreeMap<>();
  private final Set<String> failing = new TreeSet<>();
  private final Map<String, Instant> removedAt = new ConcurrentHashMap<>();

  /** Every commit's revision, oldest first. */
  private final List<String> revisions = new ArrayList<>();

  private int nextObject;

  /** Writes and commits the first revision in {@code dir}, and serves it. */
  public FaultWorkload(Path dir, int count, Random random) throws IOException, GitAPIException {
    this.dir = dir;
    this.count = count;
    this.random = random;
    this.git = Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call();
    for (int i = 0; i < count; i++) {
      String name = name(i);
      model.put(name, new TreeMap<>());
      if (failsOnPurpose(i, count)) {
        failing.add(name);
        write(name + "/kustomization.yaml", "resources: [missing.yaml]\n");
      } else {
        for (int o = 0; o < OBJECTS; o++) {
          addObject(name);
        }
      }
    }
    commit("first revision");
    this.server = GitHttpServer.serve(dir);
  }

  public static String name(int index) {
    return "k" + index;
  }

  static boolean failsOnPurpose(int index, int count) {
    return index % 50 == 49 || (count < 50 && index == count - 1);
  }

  /** The Kustomization this one depends on: chains of five, k0 <- k1 <- ... <- k4. */
  public static String dependsOn(int index) {
    return index % 5 == 0 ? null : name(index - 1);
  }

  /** Every third Kustomization waits for its objects. */
  public static boolean waits(int index) {
    return index % 3 == 0;
  }

  public int count() {
    return count;
  }

  public String url() {
    return server.url();
  }

  public Set<String> failing() {
    return Set.copyOf(failing);
  }

  public Map<String, Instant> removedAt() {
    return Map.copyOf(removedAt);
  }

  public synchronized int commits() {
    return revisions.size();
  }

  /** The latest revision as a Kustomization reports it. */
  public synchronized String revision() throws IOException {
    return "main@sha1:" + git.getRepository().resolve("HEAD").getName();
  }

  /** Per Kustomization, its objects and their values at the latest revision. */
  public synchronized Map<String, Map<String, String>> expected() {
    Map<String, Map<String, String>> copy = new TreeMap<>();
    model.forEach((name, objects) -> copy.put(name, Map.copyOf(objects)));
    return copy;
  }

  /** One commit to a Kustomization that works: an object changed, added or removed. */
  public synchronized String commitChange() throws IOException, GitAPIException {
    List<String> working = new ArrayList<>(model.keySet());
    working.removeAll(failing);
    String owner = working.get(random.nextInt(working.size()));
    TreeMap<String, String> objects = model.get(owner);
    int dice = random.nextInt(3);
    String what;
    if (dice == 1 || objects.size() <= 1) {
      what = "add " + addObject(owner);
    } else if (dice == 2) {
      String gone = new ArrayList<>(objects.keySet()).get(random.nextInt(objects.size()));
      // Noted before the commit: any deletion the engine makes follows it.
      removedAt.putIfAbsent(gone, Instant.now());
      objects.remove(gone);
      git.rm().addFilepattern(owner + "/" + gone + ".yaml").call();
      what = "remove " + gone;
    } else {
      String changed = new ArrayList<>(objects.keySet()).get(random.nextInt(objects.size()));
      writeObject(owner, changed, Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
      what = "change " + changed;
    }
    commit(what);
    return what;
  }

  /**
   * One commit that renews the objects of a working Kustomization that starts a {@code dependsOn}
   * chain (so that it is reconciled at once, not after dependencies that the commit stream keeps
   * behind the latest revision), one with the most objects: as {@link #commitRenewal(int, String,
   * Consumer)} of it.
   */
  public synchronized Renewal commitRenewal(int added, Consumer<Renewal> beforeCommit)
      throws IOException, GitAPIException {
    List<String> heads = new ArrayList<>();
    for (int i = 0; i < count; i += 5) {
      if (!failing.contains(name(i))) {
        heads.add(name(i));
      }
    }
    int most = heads.stream().mapToInt(h -> model.get(h).size()).max().orElseThrow();
    List<String> candidates = heads.stream().filter(h -> model.get(h).size() == most).toList();
    return commitRenewal(added, candidates.get(random.nextInt(candidates.size())), beforeCommit);
  }

  /**
   * One commit that renews the objects of {@code owner}: {@code added} new objects, and every
   * object it had removed (noted as removed before the commit, as {@link #commitChange} notes
   * them); {@code beforeCommit} is told what it will hold just before the commit is made (its
   * revision is not known yet). For a kill aimed at that Kustomization's reconcile.
   */
  public synchronized Renewal commitRenewal(int added, String owner, Consumer<Renewal> beforeCommit)
      throws IOException, GitAPIException {
    TreeMap<String, String> objects = model.get(owner);
    List<String> removed = List.copyOf(objects.keySet());
    Instant now = Instant.now();
    for (String gone : removed) {
      removedAt.putIfAbsent(gone, now);
      git.rm().addFilepattern(owner + "/" + gone + ".yaml").call();
    }
    objects.clear();
    List<String> fresh = new ArrayList<>();
    for (int i = 0; i < added; i++) {
      fresh.add(addObject(owner));
    }
    beforeCommit.accept(new Renewal(owner, List.copyOf(fresh), removed, null));
    commit("renew " + owner);
    return new Renewal(owner, List.copyOf(fresh), removed, revision());
  }

  /**
   * Whether {@code revision} (as a Kustomization reports it) is {@code since} or a later commit of
   * this repository; false for one it never made.
   */
  public synchronized boolean isAtOrAfter(String revision, String since) {
    int at = revisions.indexOf(revision);
    return at >= 0 && at >= revisions.indexOf(since);
  }

  /**
   * What {@link #commitRenewal} did: the Kustomization, its new objects, those it removed, and the
   * revision of the commit (null before it is made).
   */
  public record Renewal(String owner, List<String> added, List<String> removed, String revision) {}

  private String addObject(String owner) throws IOException {
    String object = owner + "-o" + nextObject++;
    writeObject(owner, object, Long.toString(random.nextLong() & Long.MAX_VALUE, 36));
    return object;
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

  private void commit(String message) throws GitAPIException {
    git.add().addFilepattern(".").call();
    RevCommit made =
        git.commit()
            .setMessage(message)
            .setAuthor(AUTHOR)
            .setCommitter(AUTHOR)
            .setSign(false)
            .call();
    revisions.add("main@sha1:" + made.getName());
  }

  @Override
  public void close() {
    server.close();
    git.close();
  }
}
