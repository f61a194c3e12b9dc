package dev.capstan.cli.install;

import dev.capstan.engine.testing.GitHttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.api.AddCommand;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;

/** A real Git repository on disk, reached by the engine over smart HTTP on loopback. */
final class LocalGitRepository implements AutoCloseable {
  private static final PersonIdent AUTHOR = new PersonIdent("Capstan Test", "test@example.invalid");
  private final Git git;
  private final Path dir;
  private final GitHttpServer server;

  LocalGitRepository(Path dir) throws GitAPIException {
    this.dir = dir;
    this.git = Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call();
    this.server = GitHttpServer.serve(dir);
  }

  String url() {
    return server.url();
  }

  /** Writes the files and commits them; returns the commit id. */
  String commit(Map<String, String> files) throws IOException, GitAPIException {
    AddCommand add = git.add();
    for (Map.Entry<String, String> file : files.entrySet()) {
      Path path = dir.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.writeString(path, file.getValue());
      add.addFilepattern(file.getKey());
    }
    // One update of the index for all files: a commit of many files stays linear.
    add.call();
    return git.commit()
        .setMessage("change")
        .setAuthor(AUTHOR)
        .setCommitter(AUTHOR)
        .setAllowEmpty(true)
        .call()
        .getName();
  }

  /** Removes a file and commits; returns the commit id. */
  String remove(String file) throws GitAPIException {
    git.rm().addFilepattern(file).call();
    return git.commit()
        .setMessage("remove " + file)
        .setAuthor(AUTHOR)
        .setCommitter(AUTHOR)
        .call()
        .getName();
  }

  /** Removes a file from the index and the work tree; the next commit records it. */
  void removeWithoutCommit(String file) throws GitAPIException {
    git.rm().addFilepattern(file).call();
  }

  String head() throws IOException {
    return git.getRepository().resolve("HEAD").getName();
  }

  @Override
  public void close() {
    server.close();
    git.close();
  }
}
