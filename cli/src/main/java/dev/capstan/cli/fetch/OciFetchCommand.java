package dev.capstan.cli.fetch;

import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.oci.OciFetchRequest;
import dev.capstan.source.oci.OciRef;
import dev.capstan.source.oci.OciSource;
import dev.capstan.source.oci.OciSourceOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code capstan fetch}: a Git ref, or with an {@code oci://} URL an OCI artifact (the tag, the
 * highest tag of a semver range, or a digest), pulled as an OCIRepository pulls it.
 */
@Command(
    name = "fetch",
    mixinStandardHelpOptions = true,
    description = {
      "Fetch a Git ref or an OCI artifact (oci://host/name), write its filtered tree into DIR,",
      "and print the revision (main@sha1:... or latest@sha256:...) as the last line."
    },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:fetched", "1:the fetch failed", "2:invalid command-line input"})
public final class OciFetchCommand extends FetchCommand {

  @Option(
      names = "--digest",
      paramLabel = "DIGEST",
      description = "oci:// only: pull this manifest digest (sha256:...).")
  String digest;

  @Option(
      names = "--semver-filter",
      paramLabel = "REGEX",
      description = "oci:// only: a regular expression tags must match for --semver.")
  String semverFilter;

  @Option(
      names = "--layer-media-type",
      paramLabel = "TYPE",
      description = "oci:// only: the media type of the layer to extract (default: the first).")
  String layerMediaType;

  @Option(
      names = "--insecure-registry",
      description = "oci:// only: allow plain http (and an https certificate not checked).")
  boolean insecureRegistry;

  @Override
  protected Integer fetchOther(PrintWriter out, PrintWriter err)
      throws IOException, SecretFile.InvalidSecretFile, BadInput {
    if (url == null || !url.startsWith("oci://")) {
      return null;
    }
    if (branch != null || commit != null) {
      throw new BadInput("--branch and --commit are for Git URLs; use --tag, --semver or --digest");
    }
    Duration limit = timeLimit();
    checkTargetDir();
    List<Map<String, byte[]>> secrets =
        secretFile == null ? List.of() : List.of(SecretFile.read(secretFile));
    OciFetchRequest request =
        OciFetchRequest.of("cli", url, new OciRef(tag, semver, semverFilter, digest))
            .withLayer(layerMediaType, false)
            .withIgnore(ignore)
            .withTimeout(limit)
            .withInsecure(insecureRegistry)
            .withPullSecrets(secrets);
    return fetchInto(
        storage ->
            new OciSource(OciSourceOptions.of(new ArtifactStore(storage, Clock.systemUTC()), null))
                .fetch(request),
        out,
        err);
  }
}
