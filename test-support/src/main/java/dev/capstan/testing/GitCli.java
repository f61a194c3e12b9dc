package dev.capstan.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code git} command-line program run in a test's work tree, with none of the user's or the
 * system's configuration, as a fixed author: for what only git itself makes, such as SSH-signed
 * commits and tags.
 */
public final class GitCli {

  private static final Map<String, String> ENV =
      Map.of(
          "GIT_CONFIG_NOSYSTEM", "1",
          "GIT_CONFIG_GLOBAL", "/dev/null",
          "GIT_AUTHOR_NAME", "Test",
          "GIT_AUTHOR_EMAIL", "test@example.invalid",
          "GIT_COMMITTER_NAME", "Test",
          "GIT_COMMITTER_EMAIL", "test@example.invalid");

  private GitCli() {}

  /** Runs {@code git args...} in {@code workTree}; its standard output. */
  public static String git(Path workTree, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add("git");
    command.addAll(args);
    try {
      return Commands.run(workTree, command, ENV);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Commits everything in the work tree, signed by {@code key}; the new commit's id. */
  public static String commitSigned(Path workTree, SshTestKey key, String message) {
    git(workTree, List.of("add", "-A"));
    List<String> args = new ArrayList<>(key.gitSigningOptions());
    args.addAll(List.of("commit", "-q", "--allow-empty", "-S", "-m", message));
    git(workTree, args);
    return git(workTree, List.of("rev-parse", "HEAD")).strip();
  }

  /** An annotated tag of HEAD signed by {@code key}. */
  public static void tagSigned(Path workTree, SshTestKey key, String name) {
    List<String> args = new ArrayList<>(key.gitSigningOptions());
    args.addAll(List.of("tag", "-s", "-m", "release " + name, name));
    git(workTree, args);
  }
}
