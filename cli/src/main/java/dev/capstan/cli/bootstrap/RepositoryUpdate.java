package dev.capstan.cli.bootstrap;

import dev.capstan.cli.apply.ResultPrinter;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.git.transport.RemoteUrl;
import dev.capstan.source.git.transport.TransportSetup;
import dev.capstan.source.git.transport.UrlScheme;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.PersonIdent;

/**
 * Writes the install and the sync objects into {@code <path>/<namespace>/} of a fresh clone, and
 * commits and pushes them when they differ from what the branch holds.
 */
final class RepositoryUpdate {

  private final String url;
  private final String branch;
  private final Map<String, byte[]> credentials;
  private final Duration timeout;
  private final ResultPrinter printer;

  RepositoryUpdate(
      String url,
      String branch,
      Map<String, byte[]> credentials,
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
    Path work = null;
    try {
      work = Files.createTempDirectory("capstan-bootstrap");
      // an empty home: no SSH configuration, key or known_hosts of the user's own is used
      Path sshHome = Files.createDirectory(work.resolve("home"));
      Path clone = work.resolve("clone");
      printer.line("cloning branch " + branch);
      try (TransportSetup transport = transport(sshHome);
          GitWorkspace workspace = GitWorkspace.clone(url, branch, transport, clone, timeout)) {
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
      delete(work);
    }
  }

  /** The transport the engine's fetch uses, with the same rules for these credentials. */
  private TransportSetup transport(Path sshHome) {
    try {
      return TransportSetup.create(
          RemoteUrl.parse(url, UrlScheme.gitRepository()), credentials, sshHome.toFile(), false);
    } catch (SourceException e) {
      throw new CliException(e.getMessage(), CliException.BAD_INPUT);
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
