package dev.capstan.cli.bootstrap;

import dev.capstan.cli.cluster.CliException;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.git.transport.TransportSetup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.transport.PushResult;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.RemoteRefUpdate;

/**
 * A clone of the bootstrapped repository's branch in a directory of its own: files are written into
 * it, then committed and pushed only when something changed. A branch the remote does not have yet
 * is started by the first commit.
 */
final class GitWorkspace implements AutoCloseable {

  private final Git git;
  private final String branch;
  private final TransportSetup transport;
  private final int timeoutSeconds;

  private GitWorkspace(Git git, String branch, TransportSetup transport, Duration timeout) {
    this.git = git;
    this.branch = branch;
    this.transport = transport;
    this.timeoutSeconds = (int) Math.max(1, timeout.toSeconds());
  }

  /** Clones {@code url} into {@code dir} with {@code branch} checked out. */
  static GitWorkspace clone(
      String url, String branch, TransportSetup transport, Path dir, Duration timeout) {
    try {
      Git git =
          transport
              .apply(Git.cloneRepository())
              .setURI(url)
              .setDirectory(dir.toFile())
              .setBranch(branch)
              .setTimeout((int) Math.max(1, timeout.toSeconds()))
              .call();
      GitWorkspace workspace = new GitWorkspace(git, branch, transport, timeout);
      try {
        workspace.startBranchIfMissing();
      } catch (Exception e) {
        git.close(); // the clone is abandoned: its repository must not stay open
        throw e;
      }
      return workspace;
    } catch (GitAPIException | IOException e) {
      throw new CliException(
          "cannot clone " + Redaction.scrubUrl(url) + ": " + oneLine(e), CliException.FAILED);
    }
  }

  /** Writes {@code content} to {@code relative} in the work tree, creating directories. */
  void write(String relative, String content) {
    Path file = git.getRepository().getWorkTree().toPath().resolve(relative);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Commits what changed under {@code directory} and pushes the branch.
   *
   * @return the commit pushed, or empty when nothing changed
   */
  Optional<String> commitAndPush(String directory, String message, PersonIdent author) {
    try {
      git.add().addFilepattern(directory).call();
      git.add().addFilepattern(directory).setUpdate(true).call();
      if (git.status().addPath(directory).call().isClean()) {
        return Optional.empty();
      }
      RevCommit commit =
          git.commit()
              .setMessage(message)
              .setAuthor(author)
              .setCommitter(author)
              .setSign(false)
              .call();
      push();
      return Optional.of(commit.getName());
    } catch (GitAPIException e) {
      throw new CliException("cannot commit: " + oneLine(e), CliException.FAILED);
    }
  }

  /** The commit the branch points at, or empty before the first. */
  Optional<String> head() {
    try {
      var id = git.getRepository().resolve(Constants.HEAD);
      return Optional.ofNullable(id).map(i -> i.getName());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void push() throws GitAPIException {
    String ref = Constants.R_HEADS + branch;
    Iterable<PushResult> results =
        transport
            .apply(git.push())
            .setRemote(Constants.DEFAULT_REMOTE_NAME)
            .setRefSpecs(new RefSpec(ref + ":" + ref))
            .setTimeout(timeoutSeconds)
            .call();
    for (PushResult result : results) {
      for (RemoteRefUpdate update : result.getRemoteUpdates()) {
        if (update.getStatus() != RemoteRefUpdate.Status.OK
            && update.getStatus() != RemoteRefUpdate.Status.UP_TO_DATE) {
          String why = update.getMessage() == null ? "" : ": " + update.getMessage();
          throw new CliException(
              "the push of " + branch + " was refused (" + update.getStatus() + why + ")",
              CliException.FAILED);
        }
      }
    }
  }

  // An empty repository, or one without the branch: HEAD names the branch, born by the commit.
  private void startBranchIfMissing() throws IOException {
    var repository = git.getRepository();
    if (repository.exactRef(Constants.R_REMOTES + "origin/" + branch) != null) {
      return;
    }
    RefUpdate head = repository.updateRef(Constants.HEAD);
    head.disableRefLog();
    head.link(Constants.R_HEADS + branch);
  }

  private static String oneLine(Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    // JGit names the URL it failed on: user information in it is never printed
    return Redaction.scrubUrls(message.lines().findFirst().orElse(""));
  }

  @Override
  public void close() {
    git.close();
  }
}
