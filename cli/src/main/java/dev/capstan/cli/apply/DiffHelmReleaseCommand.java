package dev.capstan.cli.apply;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.diff.DiffReport;
import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.options.ConcurrencyOption;
import dev.capstan.engine.helmrelease.ReleasePreview;
import dev.capstan.kube.ObjectRef;
import dev.capstan.source.core.store.ArtifactStore;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code capstan diff hr NAME}: what the engine's next upgrade (or install) of a HelmRelease would
 * change, as {@code capstan diff} shows a directory's. The release is previewed by the engine's own
 * stages ({@link ReleasePreview}): the chart fetched from its source now, the values composed, the
 * chart rendered in a chart worker; then a server-side dry-run against the live objects, and the
 * deployed release's objects the render drops shown as deletions.
 */
@Command(
    name = "helmrelease",
    aliases = {"hr", "helmreleases"},
    mixinStandardHelpOptions = true,
    description = {
      "Show what the engine's next upgrade of a HelmRelease would change: its chart fetched from"
          + " its source as it is now, its values composed (valuesFrom included), rendered as the"
          + " engine renders it, then a server-side dry-run against live state; objects of the"
          + " deployed release that the new render drops are shown as deletions.",
      "Hooks, tests and the chart's crds/ are not part of the diff. Values from Secrets and"
          + " Secret values are masked.",
      "Exit status: 0 no changes, 1 changes, 2 bad input, a chart or render that cannot be had,"
          + " or rejected objects."
    })
public final class DiffHelmReleaseCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "NAME", description = "The HelmRelease's name.")
  String name;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description = "Namespace (default: the kubeconfig context's, else default).")
  String namespace;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Mixin ConcurrencyOption concurrency = new ConcurrencyOption(8);

  @Spec CommandSpec spec;

  /** The reads of the objects the engine's prune would look at end by then, answered or not. */
  private static final Duration PRUNE_READS_DEADLINE = Duration.ofSeconds(30);

  @Override
  public Integer call() {
    if (spec.parent() != null
        && spec.parent().userObject() instanceof DiffCommand diff
        && (diff.directory != null || diff.rootDirectory != null)) {
      // a silently ignored directory would read as "this is what that directory changes"
      throw new ParameterException(
          spec.commandLine(), "-f/--filename and --root are not options of diff hr");
    }
    PrintWriter out = spec.commandLine().getOut();
    // exit 1 says that something would change: a failure is 2
    return CommandRunner.run(
        spec,
        cluster,
        CliException.BAD_INPUT,
        () -> name,
        (client, wanted) ->
            WorkerPool.run(
                concurrency.requests(),
                pool -> {
                  ResourceManager manager = ResourceManager.ofUser(client, pool);
                  return diff(client, manager, wanted, out);
                }));
  }

  private int diff(
      KubernetesClient client, ResourceManager manager, String wanted, PrintWriter out) {
    String ns = ClusterOptions.namespace(client, namespace);
    HelmRelease release =
        client.resources(HelmRelease.class).inNamespace(ns).withName(wanted).get();
    String what = "HelmRelease '" + ns + "/" + wanted + "'";
    if (release == null) {
      throw new CliException(what + " not found", CliException.BAD_INPUT);
    }
    ReleasePreview.Preview preview = preview(client, release, what);
    out.println(
        what
            + ": "
            + (preview.upgrade() ? "upgrade" : "install")
            + " with chart version "
            + preview.revision()
            + " of "
            + preview.chart());
    preview
        .uninstallFirst()
        .ifPresent(
            why ->
                out.println(
                    what
                        + ": the release target changed ("
                        + why
                        + "): the engine uninstalls that release first, its objects too"));
    DiffReport report =
        manager.diff(preview.objects(), preview.owner(), release.releaseNamespace());
    List<ObjectResult> pruned =
        manager.wouldPrune(preview.stale(), preview.owner(), PRUNE_READS_DEADLINE);
    List<ObjectResult> unread = pruned.stream().filter(ObjectResult::failed).toList();
    for (ObjectResult r : unread) {
      out.println(
          preview
              .fromSecrets()
              .redact(
                  "? "
                      + r.ref()
                      + ": prune would look at it, but it could not be read: "
                      + r.reason()));
    }
    List<ObjectRef> deleted =
        pruned.stream().filter(r -> r.action() == Action.DELETED).map(ObjectResult::ref).toList();
    DiffCommand.print(report, deleted, preview.fromSecrets()::redactLines, out);
    if (report.hasFailures() || !unread.isEmpty()) {
      return CliException.BAD_INPUT;
    }
    return report.hasChanges() || !deleted.isEmpty() ? 1 : 0;
  }

  /** The preview, its chart fetched into a temporary store deleted afterwards. */
  private static ReleasePreview.Preview preview(
      KubernetesClient client, HelmRelease release, String what) {
    Path store;
    try {
      store = Files.createTempDirectory("capstan-diff-hr");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // The render reads the fetched chart and nothing beside the store.
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(store))) {
      return ReleasePreview.outsideEngine(
              client, request -> builder.charts().render(request), store, Clock.systemUTC())
          .preview(release);
    } catch (ReleasePreview.Unavailable e) {
      throw new CliException(what + ": " + e.getMessage(), CliException.BAD_INPUT);
    } finally {
      try {
        ArtifactStore.deleteTree(store);
      } catch (IOException | UncheckedIOException ignored) {
        // a leftover temporary directory is harmless
      }
    }
  }
}
