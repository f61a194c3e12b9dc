package dev.capstan.source.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;

/** A real Git repository on disk that tests commit to and serve. */
public final class TestRepo implements AutoCloseable {

  private static final PersonIdent AUTHOR =
      new PersonIdent("Test", "test@example.invalid", 1_700_000_000_000L, 0);

  private final Git git;
  private final Path workTree;
  private long tick;

  private TestRepo(Git git, Path workTree) {
    this.git = git;
    this.workTree = workTree;
  }

  /** A non-bare repository whose default branch is {@code main}. */
  public static TestRepo create(Path dir) throws GitAPIException {
    Git git = Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call();
    return new TestRepo(git, dir);
  }

  public Path dir() {
    return workTree;
  }

  public Path gitDir() {
    return git.getRepository().getDirectory().toPath();
  }

  public String fileUrl() {
    return workTree.toUri().toString();
  }

  public Git git() {
    return git;
  }

  /** Writes files (path to content; null content deletes) and commits them all. */
  public RevCommit commit(String message, Map<String, String> files)
      throws IOException, GitAPIException {
    for (var e : files.entrySet()) {
      Path file = workTree.resolve(e.getKey());
      if (e.getValue() == null) {
        Files.deleteIfExists(file);
        continue;
      }
      Files.createDirectories(file.getParent());
      Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
    }
    return commitAll(message);
  }

  public RevCommit symlink(String path, String target) throws IOException, GitAPIException {
    Path link = workTree.resolve(path);
    Files.createDirectories(link.getParent());
    Files.deleteIfExists(link);
    Files.createSymbolicLink(link, Path.of(target));
    return commitAll("link " + path);
  }

  public RevCommit commitAll(String message) throws GitAPIException {
    git.add().addFilepattern(".").call();
    git.add().addFilepattern(".").setUpdate(true).call();
    PersonIdent when = new PersonIdent(AUTHOR, AUTHOR.getWhenAsInstant().plusSeconds(tick++));
    return git.commit().setMessage(message).setAuthor(when).setCommitter(when).call();
  }

  public void tag(String name, boolean annotated) throws GitAPIException {
    git.tag().setName(name).setAnnotated(annotated).setMessage(annotated ? name : null)
        .setTagger(annotated ? AUTHOR : null).call();
  }

  public void branch(String name) throws GitAPIException {
    git.branchCreate().setName(name).call();
  }

  public void checkout(String branch) throws GitAPIException {
    git.checkout().setName(branch).call();
  }

  @Override
  public void close() {
    git.close();
  }
}
