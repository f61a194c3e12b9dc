package dev.capstan.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/** Opens (creating on first use) the bare repository that caches one source's objects. */
final class RepositoryCache {

  private RepositoryCache() {}

  static Git open(Path dir) throws IOException {
    if (Files.isDirectory(dir.resolve("objects"))) {
      try {
        return Git.wrap(new FileRepositoryBuilder().setGitDir(dir.toFile()).setMustExist(true)
            .build());
      } catch (IOException | RuntimeException e) {
        // A damaged cache is only a cache: start again from an empty one.
        ArtifactStore.deleteTree(dir);
      }
    }
    Files.createDirectories(dir);
    try {
      Git git = Git.init().setBare(true).setGitDir(dir.toFile()).call();
      StoredConfig config = git.getRepository().getConfig();
      // Automatic gc would run in the middle of a fetch; the cache is pruned by re-cloning.
      config.setInt("gc", null, "auto", 0);
      config.save();
      return git;
    } catch (GitAPIException e) {
      throw new IOException("could not create the repository cache: " + e.getMessage(), e);
    }
  }
}
