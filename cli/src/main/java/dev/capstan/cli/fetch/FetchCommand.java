package dev.capstan.cli.fetch;

import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.options.DurationConverter;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.git.FetchRequest;
import dev.capstan.source.git.GitRef;
import dev.capstan.source.git.GitSource;
import dev.capstan.source.git.GitSourceOptions;
import dev.capstan.source.git.transport.UrlScheme;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code capstan fetch}: the source module used once, from a shell. */
@Command(
    name = "fetch",
    mixinStandardHelpOptions = true,
    description = {
      "Fetch a Git ref or an OCI artifact (oci://), write its filtered tree (.sourceignore",
      "rules applied) into DIR,",
      "and print the revision (e.g. main@sha1:...) as the last line."
    },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:fetched", "1:the fetch failed", "2:invalid command-line input"})
public class FetchCommand implements Callable<Integer> {

  protected static final int FAILED = CliException.FAILED;
  protected static final int BAD_INPUT = CliException.BAD_INPUT;

  @Spec protected CommandSpec spec;

  @Option(
      names = "--url",
      required = true,
      paramLabel = "URL",
      description = "https://, http://, ssh://, git@host:path, git:// or file:// URL.")
  protected String url;

  @Option(names = "--branch", paramLabel = "B", description = "Branch to fetch.")
  protected String branch;

  @Option(names = "--tag", paramLabel = "T", description = "Tag to fetch.")
  protected String tag;

  @Option(
      names = "--semver",
      paramLabel = "RANGE",
      description = "Fetch the highest tag in this semver range.")
  protected String semver;

  @Option(
      names = "--commit",
      paramLabel = "SHA",
      description = "Fetch this commit (full SHA-1); may be combined with --branch.")
  protected String commit;

  @Option(
      names = "--secret-file",
      paramLabel = "F",
      description = "Credentials: a Secret manifest (YAML/JSON) or key=value lines.")
  protected Path secretFile;

  @Option(
      names = "--ignore",
      paramLabel = "RULES",
      description = "Extra ignore rules in gitignore syntax (like spec.ignore).")
  protected String ignore;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "60s",
      description = "Time the fetch may take, e.g. 30s, 1.5m or 1h2m (default: ${DEFAULT-VALUE}).")
  protected String timeout;

  @Option(
      names = "--allow-insecure-http",
      description =
          "Send the secret's username/password or bearerToken even over plain http://"
              + " (refused by default: they would travel unencrypted).")
  protected boolean allowInsecureHttp;

  @Option(
      names = "--dir",
      required = true,
      paramLabel = "DIR",
      description = "Directory to write the tree into; must be empty or not exist.")
  protected Path dir;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter out = spec.commandLine().getOut();
    try {
      Integer other = fetchOther(out, err);
      if (other != null) {
        return other;
      }
      FetchRequest request = request();
      checkTargetDir();
      return fetchInto(request, out, err);
    } catch (BadInput | SecretFile.InvalidSecretFile e) {
      return CommandRunner.fail(err, new CliException(e.getMessage(), BAD_INPUT));
    } catch (IOException e) {
      return CommandRunner.fail(err, new CliException(e.getMessage(), FAILED));
    }
  }

  /**
   * Fetches a URL another kind of source handles (a subclass's), returning the exit code; null to
   * fetch it as a Git URL.
   */
  protected Integer fetchOther(PrintWriter out, PrintWriter err)
      throws IOException, SecretFile.InvalidSecretFile, BadInput {
    return null;
  }

  private int fetchInto(FetchRequest request, PrintWriter out, PrintWriter err) throws IOException {
    // The user's own machine: local repositories (file://, paths) are theirs to read.
    return fetchInto(
        storage ->
            new GitSource(
                    GitSourceOptions.at(storage)
                        .withAllowedSchemes(UrlScheme.all())
                        .withCredentialsOverPlainHttp(allowInsecureHttp))
                .fetch(request),
        out,
        err);
  }

  /**
   * Fetches into a store of its own in a temporary directory, copies the tree into {@code dir} and
   * prints the revision last; the store is deleted whatever happens.
   */
  protected int fetchInto(Function<Path, FetchResult> fetch, PrintWriter out, PrintWriter err)
      throws IOException {
    Path storage = Files.createTempDirectory("capstan-fetch");
    try {
      FetchResult result = fetch.apply(storage);
      if (result instanceof FetchResult.Failed failed) {
        err.println("error: " + failed.message() + " (" + failed.reason().conditionReason() + ")");
        return FAILED;
      }
      var artifact = result.artifact().orElseThrow();
      copyTree(artifact.path(), dir);
      out.println(artifact.revision());
      out.flush();
      return 0;
    } finally {
      deleteTree(storage);
    }
  }

  private FetchRequest request() throws BadInput, SecretFile.InvalidSecretFile {
    long refKinds =
        Stream.of(tag, semver).filter(v -> v != null).count()
            + (commit == null && branch != null ? 1 : 0)
            + (commit != null ? 1 : 0);
    if (refKinds > 1 || (commit != null && (tag != null || semver != null))) {
      throw new BadInput(
          "give at most one of --branch, --tag, --semver and --commit "
              + "(--commit may be combined with --branch)");
    }
    Duration limit = timeLimit();
    Map<String, byte[]> secret = secretFile == null ? Map.of() : SecretFile.read(secretFile);
    GitRef ref = new GitRef(branch, tag, semver, null, commit);
    return FetchRequest.of("cli", url, ref)
        .withSecretData(secret)
        .withIgnore(ignore)
        .withTimeout(limit);
  }

  /** The --timeout, read as every duration option of the command line is. */
  protected Duration timeLimit() throws BadInput {
    try {
      return DurationConverter.read("--timeout", timeout);
    } catch (IllegalArgumentException e) {
      throw new BadInput(e.getMessage());
    }
  }

  protected void checkTargetDir() throws BadInput {
    if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        throw new BadInput("--dir " + dir + " exists and is not a directory");
      }
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new BadInput("--dir " + dir + " is not empty");
        }
      } catch (IOException e) {
        throw new BadInput("cannot read --dir " + dir + ": " + e.getClass().getSimpleName());
      }
    }
  }

  /** Copies a published tree, keeping symlinks as links (they were checked when exported). */
  protected static void copyTree(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs)
              throws IOException {
            Files.createDirectories(to.resolve(from.relativize(d).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
            Files.copy(
                f,
                to.resolve(from.relativize(f).toString()),
                LinkOption.NOFOLLOW_LINKS,
                StandardCopyOption.COPY_ATTRIBUTES);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  protected static void deleteTree(Path root) {
    try {
      ArtifactStore.deleteTree(root);
    } catch (IOException | UncheckedIOException ignored) {
      // a leftover temporary directory is harmless
    }
  }

  /** Invalid command-line input; exit code 2. */
  protected static final class BadInput extends Exception {
    public BadInput(String message) {
      super(message, null, false, false);
    }
  }
}
