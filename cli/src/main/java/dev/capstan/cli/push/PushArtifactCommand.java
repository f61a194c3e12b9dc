package dev.capstan.cli.push;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.options.DurationConverter;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.oci.ArtifactPusher;
import dev.capstan.source.oci.OciUrl;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code capstan push artifact}: packs a directory as an OCI artifact with Flux's media types and
 * annotations and pushes it, as {@code flux push artifact} does, so that CI can publish what an
 * OCIRepository pulls.
 */
@Command(
    name = "artifact",
    mixinStandardHelpOptions = true,
    description = {
      "Pack DIR (--path) as an OCI artifact in Flux's format and push it to oci://host/name:tag;",
      "prints where it went (or, with -o json, url, repository, tag and digest)."
    },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:pushed", "1:the push failed", "2:invalid command-line input"})
public final class PushArtifactCommand implements Callable<Integer> {
  static final int FAILED = CliException.FAILED;
  static final int BAD_INPUT = CliException.BAD_INPUT;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Spec CommandSpec spec;

  private final PushCredentials credentials;

  /** The command as the command line runs it: this process's environment and standard input. */
  public PushArtifactCommand() {
    this(System.getenv(), System.in);
  }

  /** With the environment and standard input credentials are read from. */
  PushArtifactCommand(Map<String, String> environment, InputStream stdin) {
    this.credentials = new PushCredentials(environment, stdin);
  }

  @Parameters(index = "0", paramLabel = "URL", description = "oci://host[:port]/name:tag")
  String url;

  @Option(
      names = {"-f", "--path"},
      required = true,
      paramLabel = "DIR",
      description = "The directory to pack.")
  Path path;

  @Option(
      names = "--source",
      required = true,
      paramLabel = "URL",
      description = "Where the content comes from, e.g. the Git URL (annotation .source).")
  String source;

  @Option(
      names = "--revision",
      required = true,
      paramLabel = "REV",
      description = "The source's revision, e.g. main@sha1:<commit> (annotation .revision).")
  String revision;

  @Option(
      names = "--creds",
      paramLabel = "USER[:PASSWORD]",
      description = {
        "Registry credentials (seen in the process list: prefer --creds-stdin or "
            + PushCredentials.ENVIRONMENT
            + "); else "
            + PushCredentials.ENVIRONMENT
            + ", else those of ~/.docker/config.json for the host."
      })
  String creds;

  @Option(
      names = "--creds-stdin",
      description = "Read the registry credentials, USER[:PASSWORD], from the first line of stdin.")
  boolean credsStdin;

  @Option(
      names = {"-a", "--annotations"},
      paramLabel = "KEY=VALUE",
      description = "More annotations of the manifest.")
  List<String> annotations = new ArrayList<>();

  @Option(
      names = "--ignore-paths",
      split = ",",
      paramLabel = "RULES",
      description = {
        "Paths to leave out, in gitignore syntax, in place of the defaults (VCS files and"
            + " archives), as Flux's; .git is left out always."
      })
  List<String> ignorePaths;

  @Option(
      names = "--reproducible",
      description = "Set the created time to 1970-01-01T00:00:00Z: same content, same digest.")
  boolean reproducible;

  @Option(names = "--insecure-registry", description = "Push over plain http.")
  boolean insecure;

  @Option(
      names = "--ca-file",
      paramLabel = "FILE",
      description = "A PEM CA certificate to trust for the registry beside the JVM's own.")
  Path caFile;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description = "json: print url, repository, tag and digest as JSON.")
  String output;

  @Option(
      names = "--timeout",
      defaultValue = "5m",
      paramLabel = "DURATION",
      description = "Time the push may take (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ArtifactPusher.Push push;
    try {
      push = push();
    } catch (BadInput | PushCredentials.Unusable | SourceException e) {
      return CommandRunner.fail(err, new CliException(e.getMessage(), BAD_INPUT));
    }
    try {
      ArtifactPusher.Pushed pushed = new ArtifactPusher(Clock.systemUTC()).push(push);
      String location =
          pushed.url().registry() + "/" + pushed.url().repository() + "@" + pushed.digest();
      if ("json".equals(output)) {
        ObjectNode info = JSON.createObjectNode();
        info.put("url", "oci://" + location);
        info.put("repository", pushed.url().registry() + "/" + pushed.url().repository());
        info.put("tag", pushed.tag());
        info.put("digest", pushed.digest());
        out.println(info.toPrettyString());
      } else {
        out.println("artifact successfully pushed to " + location);
      }
      out.flush();
      return 0;
    } catch (SourceException e) {
      return CommandRunner.fail(
          err, new CliException("pushing artifact failed: " + e.getMessage(), FAILED));
    } catch (IOException e) {
      return CommandRunner.fail(
          err,
          new CliException("pushing artifact failed: " + e.getClass().getSimpleName(), FAILED));
    }
  }

  /** What to push, as the options say. */
  ArtifactPusher.Push push() throws BadInput, PushCredentials.Unusable {
    if (output != null && !output.equals("json")) {
      throw new BadInput("--output must be json");
    }
    if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      throw new BadInput("--path " + path + " is not a directory");
    }
    Duration limit;
    try {
      limit = DurationConverter.read("--timeout", timeout);
    } catch (IllegalArgumentException e) {
      throw new BadInput(e.getMessage());
    }
    OciUrl.Tagged target = OciUrl.parseTagged(url);
    Map<String, String> extra = new LinkedHashMap<>();
    for (String annotation : annotations) {
      int eq = annotation.indexOf('=');
      if (eq <= 0) {
        throw new BadInput(
            "invalid annotation " + annotation + ", must be in the format key=value");
      }
      extra.put(annotation.substring(0, eq), annotation.substring(eq + 1));
    }
    byte[] ca = null;
    if (caFile != null) {
      try {
        ca = Files.readAllBytes(caFile);
      } catch (IOException e) {
        throw new BadInput("cannot read --ca-file " + caFile);
      }
    }
    return new ArtifactPusher.Push(
        target,
        path,
        source,
        revision,
        reproducible ? Instant.EPOCH : null,
        ignorePaths == null ? null : String.join("\n", ignorePaths),
        extra,
        credentials.find(creds, credsStdin, target.url().registry()),
        insecure,
        ca,
        Instant.now().plus(limit));
  }

  static final class BadInput extends Exception {
    BadInput(String message) {
      super(message, null, false, false);
    }
  }
}
