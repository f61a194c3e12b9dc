package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.StoredConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepositoryCacheTest {

  @TempDir Path tmp;

  @Test
  void newCacheRunsNoGcAfterItsFetchReturns() throws Exception {
    Path dir = tmp.resolve("cache");
    try (Git git = RepositoryCache.open(dir)) {
      assertGcStaysInForeground(git, dir);
    }
  }

  @Test
  void cacheMadeWithAutomaticGcOnlyTurnedOffIsBroughtUpToDate() throws Exception {
    Path dir = tmp.resolve("old-cache");
    try (Git git = Git.init().setBare(true).setGitDir(dir.toFile()).call()) {
      StoredConfig config = git.getRepository().getConfig();
      config.setInt("gc", null, "auto", 0);
      config.save();
    }
    try (Git git = RepositoryCache.open(dir)) {
      assertGcStaysInForeground(git, dir);
    }
  }

  private static void assertGcStaysInForeground(Git git, Path dir) throws Exception {
    StoredConfig config = git.getRepository().getConfig();
    assertEquals(0, config.getInt("gc", "auto", -1));
    assertFalse(config.getBoolean("gc", "autoDetach", true));
    // what a fetch runs when it ends: detached, it would leave its lock file to a background thread
    git.getRepository().autoGC(NullProgressMonitor.INSTANCE);
    assertFalse(Files.exists(dir.resolve("gc.log.lock")), "gc lock left after autoGC returned");
  }
}
