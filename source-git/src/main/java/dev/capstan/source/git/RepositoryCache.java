package dev.capstan.source.git;

import dev.capstan.source.core.store.ArtifactStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Date;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/** Opens (creating on first use) the bare repository that caches one source's objects. */
final class RepositoryCache {

  /** Each fetch adds a pack; past this many, lookups slow down and a repack pays off. */
  static final int MAX_PACKS = 16;

  private RepositoryCache() {}

  /** Where the store keeps the cache of the source {@code key}: beside its state. */
  static Path dirOf(ArtifactStore store, String key) {
    return store.sourceDir(key).resolve("git");
  }

  /**
   * Repacks the cache once fetches have piled up packs, dropping objects that no ref reaches any
   * more (shallow fetches leave the commits they replaced behind).
   */
  static void maintain(Git git) throws IOException {
    Path packs = git.getRepository().getDirectory().toPath().resolve("objects/pack");
    long count;
    try (var files = Files.list(packs)) {
      count = files.filter(f -> f.getFileName().toString().endsWith(".pack")).count();
    }
    if (count > MAX_PACKS) {
      // Only fetches of this source, which hold its lock, read the cache: nobody can still be
      // reading the replaced packs, so they may go at once rather than after the default hour.
      git.getRepository().getConfig().setString("gc", null, "prunePackExpire", "now");
      try {
        git.gc().setExpire(new Date()).call();
      } catch (GitAPIException e) {
        throw new IOException("could not repack the repository cache: " + e.getMessage(), e);
      }
    }
  }

  /**
   * Whether {@code failure} says an object was missing where it was looked for: most often the
   * cache lacking one that its refs or shallow roots name (a fetch cut short by a full disk or a
   * kill leaves that). Whatever the cause, a fetch into a new cache either mends it or fails again.
   */
  static boolean isDamage(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof MissingObjectException) {
        return true;
      }
    }
    return false;
  }

  static Git open(Path dir) throws IOException {
    if (Files.isDirectory(dir.resolve("objects"))) {
      try {
        Git git =
            Git.wrap(
                new FileRepositoryBuilder().setGitDir(dir.toFile()).setMustExist(true).build());
        keepGcInForeground(git.getRepository().getConfig());
        return git;
      } catch (IOException | RuntimeException e) {
        // A damaged cache is only a cache: start again from an empty one.
        ArtifactStore.deleteTree(dir);
      }
    }
    Files.createDirectories(dir);
    try {
      Git git = Git.init().setBare(true).setGitDir(dir.toFile()).call();
      keepGcInForeground(git.getRepository().getConfig());
      return git;
    } catch (GitAPIException e) {
      throw new IOException("could not create the repository cache: " + e.getMessage(), e);
    }
  }

  /**
   * Turns off automatic gc, and runs what gc is left in the caller's thread. A fetch ends with an
   * automatic gc that, detached, takes its lock file on a background thread even when it has
   * nothing to do: it would write into the cache after the fetch returned, while the cache is being
   * re-cloned or removed. Caches made before this setting get it when they are next opened.
   */
  static void keepGcInForeground(StoredConfig config) throws IOException {
    if (config.getInt("gc", "auto", -1) == 0 && !config.getBoolean("gc", "autoDetach", true)) {
      return;
    }
    config.setInt("gc", null, "auto", 0);
    config.setBoolean("gc", null, "autoDetach", false);
    config.save();
  }
}
