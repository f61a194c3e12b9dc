package dev.capstan.cli.bootstrap;

import dev.capstan.cli.apply.ResultPrinter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.transport.CredentialsProvider;

/**
 * Writes the install and the sync objects into {@code <path>/<namespace>/} of a fresh clone, and
 * commits and pushes them when they differ from what the branch holds.
 */
final class RepositoryUpdate {

  private final String url;
  private final String branch;
  private final CredentialsProvider credentials;
  private final Duration timeout;
  private final ResultPrinter printer;

  RepositoryUpdate(
      String url,
      String branch,
      CredentialsProvider credentials,
      Duration timeout,
      ResultPrinter printer) {
    this.url = url;
    this.branch = branch;
    this.credentials = credentials;
    this.timeout = timeout;
    this.printer = printer;
  }

  /** Returns the commit the branch holds afterwards: the one pushed, or the one already there. */
  String update(String directory, String components, String sync, PersonIdent author) {
    Path clone = null;
    try {
      clone = Files.createTempDirectory("capstan-bootstrap");
      printer.line("cloning branch " + branch);
      try (GitWorkspace workspace = GitWorkspace.clone(url, branch, credentials, clone, timeout)) {
        boolean first = workspace.head().isEmpty();
        workspace.write(directory + "/" + SyncManifests.COMPONENTS, components);
        workspace.write(directory + "/" + SyncManifests.SYNC, sync);
        workspace.write(directory + "/kustomization.yaml", SyncManifests.kustomizationFile());
        String message = (first ? "Add" : "Update") + " Capstan manifests in " + directory;
        Optional<String> pushed = workspace.commitAndPush(directory, message, author);
        if (pushed.isPresent()) {
          printer.line("pushed " + pushed.get() + " to " + branch + ": " + message);
          return pushed.get();
        }
        String head = workspace.head().orElseThrow();
        printer.line("the manifests in " + directory + " are up to date at " + head);
        return head;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      delete(clone);
    }
  }

  private static void delete(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary clone left behind harms nothing
    }
  }
}
