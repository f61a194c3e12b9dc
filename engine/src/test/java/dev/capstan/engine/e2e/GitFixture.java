package dev.capstan.engine.e2e;

import dev.capstan.engine.testing.GitHttpServer;
import dev.capstan.engine.testing.GitHubAppEndpoint;
import dev.capstan.testing.GitCli;
import dev.capstan.testing.PgpTestKey;
import dev.capstan.testing.SshTestKey;
import dev.capstan.testing.TestPki;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.GpgSignature;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;

/** A real Git repository on disk, served to the engine over smart HTTP(S) on loopback. */
final class GitFixture implements AutoCloseable {
  private static final PersonIdent AUTHOR = new PersonIdent("Capstan Test", "test@example.invalid");

  private final Git git;
  private final Path dir;
  private final GitHttpServer server;

  private GitFixture(Git git, Path dir, GitHttpServer server) {
    this.git = git;
    this.dir = dir;
    this.server = server;
  }

  static GitFixture create(Path dir) {
    return new GitFixture(init(dir), dir, GitHttpServer.serve(dir));
  }

  /**
   * A repository served over https with {@code certificate}, only to clients presenting a
   * certificate that an authority in {@code trusted} signed.
   */
  static GitFixture createMutualTls(Path dir, TestPki.Issued certificate, KeyStore trusted) {
    return new GitFixture(init(dir), dir, GitHttpServer.serveMutualTls(dir, certificate, trusted));
  }

  /** A repository served over https as GitHub serves it to {@code app}'s installation tokens. */
  static GitFixture createGitHubApp(Path dir, TestPki.Issued certificate, GitHubAppEndpoint app) {
    return new GitFixture(init(dir), dir, GitHttpServer.serveGitHubApp(dir, certificate, app));
  }

  private static Git init(Path dir) {
    try {
      return Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call();
    } catch (GitAPIException e) {
      throw new IllegalStateException(e);
    }
  }

  String url() {
    return server.url();
  }

  /** The API URL of {@link #createGitHubApp}'s server. */
  String apiUrl() {
    return server.apiUrl();
  }

  /**
   * Writes the files (null content deletes one), commits, and returns the revision Capstan reports.
   */
  String commit(Map<String, String> files) {
    return commit(files, "change");
  }

  /** As {@link #commit(Map)}, with this commit message. */
  String commit(Map<String, String> files, String message) {
    try {
      for (var entry : files.entrySet()) {
        Path file = dir.resolve(entry.getKey());
        if (entry.getValue() == null) {
          git.rm().addFilepattern(entry.getKey()).call();
          continue;
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, entry.getValue(), StandardCharsets.UTF_8);
        git.add().addFilepattern(entry.getKey()).call();
      }
      RevCommit commit =
          git.commit()
              .setMessage(message)
              .setAuthor(AUTHOR)
              .setCommitter(AUTHOR)
              .setAllowEmpty(true)
              .call();
      return "main@sha1:" + commit.getName();
    } catch (IOException | GitAPIException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Writes the files and commits them signed by {@code key}; returns the revision Capstan reports.
   */
  String commitSigned(Map<String, String> files, PgpTestKey key) {
    try {
      for (var entry : files.entrySet()) {
        Path file = dir.resolve(entry.getKey());
        Files.createDirectories(file.getParent());
        Files.writeString(file, entry.getValue(), StandardCharsets.UTF_8);
        git.add().addFilepattern(entry.getKey()).call();
      }
      var repo = git.getRepository();
      try (var inserter = repo.newObjectInserter()) {
        var builder = new CommitBuilder();
        builder.setTreeId(repo.readDirCache().writeTree(inserter));
        var head = repo.resolve("HEAD");
        if (head != null) {
          builder.setParentId(head);
        }
        builder.setAuthor(AUTHOR);
        builder.setCommitter(AUTHOR);
        builder.setMessage("signed change");
        builder.setGpgSignature(new GpgSignature(key.sign(builder.build())));
        var id = inserter.insert(builder);
        inserter.flush();
        var update = repo.updateRef("HEAD");
        update.setNewObjectId(id);
        update.forceUpdate();
        return "main@sha1:" + id.getName();
      }
    } catch (IOException | GitAPIException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Writes the files and commits them signed by {@code key} with git itself ({@code gpg.format
   * ssh}); returns the revision Capstan reports.
   */
  String commitSshSigned(Map<String, String> files, SshTestKey key) {
    try {
      for (var entry : files.entrySet()) {
        Path file = dir.resolve(entry.getKey());
        Files.createDirectories(file.getParent());
        Files.writeString(file, entry.getValue(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return "main@sha1:" + GitCli.commitSigned(dir, key, "ssh-signed change");
  }

  @Override
  public void close() {
    server.close();
    git.close();
  }
}
