package dev.capstan.source.testing;

import java.io.IOException;
import java.nio.file.Path;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.util.FS;

/** Maps a repository name in a URL onto a repository under a base directory. */
final class Repositories {

  private final Path base;

  Repositories(Path base) {
    this.base = base.toAbsolutePath().normalize();
  }

  Repository open(String name) throws RepositoryNotFoundException {
    String clean = name.replaceAll("^/+", "").replaceAll("/+$", "");
    Path dir = base.resolve(clean).normalize();
    if (clean.isEmpty() || !dir.startsWith(base)) {
      throw new RepositoryNotFoundException(name);
    }
    RepositoryCache.FileKey key = RepositoryCache.FileKey.lenient(dir.toFile(), FS.DETECTED);
    try {
      return RepositoryCache.open(key, true);
    } catch (IOException e) {
      throw new RepositoryNotFoundException(name, e);
    }
  }
}
