package dev.capstan.source.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.GpgSignature;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.TagBuilder;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

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

  /**
   * Writes the files and commits them with {@code signature} made over the commit's bytes (the
   * function gets the unsigned commit and returns the armored signature to store in it).
   */
  public RevCommit signedCommit(
      String message, Map<String, String> files, UnaryOperator<byte[]> signature)
      throws IOException, GitAPIException {
    for (var e : files.entrySet()) {
      Path file = workTree.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
    }
    git.add().addFilepattern(".").call();
    var repo = git.getRepository();
    try (var inserter = repo.newObjectInserter();
        var walk = new RevWalk(repo)) {
      var builder = new CommitBuilder();
      builder.setTreeId(repo.readDirCache().writeTree(inserter));
      var head = repo.resolve("HEAD");
      if (head != null) {
        builder.setParentId(head);
      }
      PersonIdent when = new PersonIdent(AUTHOR, AUTHOR.getWhenAsInstant().plusSeconds(tick++));
      builder.setAuthor(when);
      builder.setCommitter(when);
      builder.setMessage(message);
      builder.setGpgSignature(new GpgSignature(signature.apply(builder.build())));
      var id = inserter.insert(builder);
      inserter.flush();
      var update = repo.updateRef("HEAD");
      update.setNewObjectId(id);
      update.forceUpdate();
      return walk.parseCommit(id);
    }
  }

  /** An annotated tag of HEAD signed with {@code signature} over the tag's bytes. */
  public void signedTag(String name, UnaryOperator<byte[]> signature) throws IOException {
    var repo = git.getRepository();
    try (var inserter = repo.newObjectInserter()) {
      var builder = new TagBuilder();
      builder.setObjectId(repo.resolve("HEAD"), Constants.OBJ_COMMIT);
      builder.setTag(name);
      builder.setTagger(AUTHOR);
      builder.setMessage(name + "\n");
      builder.setGpgSignature(new GpgSignature(signature.apply(builder.build())));
      var id = inserter.insert(builder);
      inserter.flush();
      var update = repo.updateRef(Constants.R_TAGS + name);
      update.setNewObjectId(id);
      update.forceUpdate();
    }
  }

  public void tag(String name, boolean annotated) throws GitAPIException {
    git.tag()
        .setName(name)
        .setAnnotated(annotated)
        .setMessage(annotated ? name : null)
        .setTagger(annotated ? AUTHOR : null)
        .call();
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
