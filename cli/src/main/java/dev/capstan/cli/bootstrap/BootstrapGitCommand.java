package dev.capstan.cli.bootstrap;

import dev.capstan.cli.apply.ResultPrinter;
import dev.capstan.cli.apply.WorkerPool;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.install.InstallManifests;
import dev.capstan.cli.install.InstallOptions;
import dev.capstan.cli.install.InstallSettings;
import dev.capstan.cli.install.Installer;
import dev.capstan.cli.options.DurationConverter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.eclipse.jgit.lib.PersonIdent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code capstan bootstrap git}: the install's manifests and the sync objects committed to a
 * repository path, then Capstan installed and pointed at that path, so that a commit upgrades it.
 */
@Command(
    name = "git",
    mixinStandardHelpOptions = true,
    description = {
      "Push the install manifests to PATH/NAMESPACE/ of a Git repository, install Capstan, and"
          + " create the GitRepository and Kustomization that keep it up to date from there.",
      "Exit status: 0 Ready, 1 a step failed or the Kustomization did not become Ready,"
          + " 2 bad input."
    })
public final class BootstrapGitCommand implements Callable<Integer> {

  @Option(names = "--url", required = true, paramLabel = "URL", description = "The repository.")
  String url;

  @Option(
      names = "--branch",
      defaultValue = "main",
      paramLabel = "NAME",
      description = "The branch to commit to and follow. Default: ${DEFAULT-VALUE}.")
  String branch;

  @Option(
      names = "--path",
      required = true,
      paramLabel = "DIR",
      description = "The repository path of this cluster, e.g. clusters/my-cluster.")
  String path;

  @Option(
      names = "--interval",
      defaultValue = "1m",
      paramLabel = "D",
      description = "How often the GitRepository fetches. Default: ${DEFAULT-VALUE}.")
  String interval;

  @Mixin GitCredentials credentials = new GitCredentials();

  @Mixin InstallOptions install = new InstallOptions();

  @Option(
      names = "--author-name",
      defaultValue = "Capstan",
      paramLabel = "NAME",
      description = "The commit's author. Default: ${DEFAULT-VALUE}.")
  String authorName;

  @Option(
      names = "--author-email",
      defaultValue = "capstan@localhost",
      paramLabel = "EMAIL",
      description = "The commit author's e-mail. Default: ${DEFAULT-VALUE}.")
  String authorEmail;

  @Option(
      names = "--timeout",
      defaultValue = "5m",
      converter = DurationConverter.class,
      paramLabel = "D",
      description =
          "Time limit for the Git operations, the install and the sync. Default:"
              + " ${DEFAULT-VALUE}.")
  Duration timeout;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    InstallSettings settings = install.settings();
    String clusterPath;
    try {
      clusterPath = RepositoryPath.of(path);
      DurationConverter.read("--interval", interval);
      credentials.check();
      refusePasswordInUrl(url);
    } catch (CliException e) {
      return CommandRunner.fail(spec.commandLine().getErr(), e);
    } catch (IllegalArgumentException e) {
      return CommandRunner.fail(
          spec.commandLine().getErr(), new CliException(e.getMessage(), CliException.BAD_INPUT));
    }
    SyncManifests sync =
        new SyncManifests(
            settings.namespace(),
            url,
            branch,
            clusterPath,
            interval,
            credentials.secretName(settings.namespace()));
    ResultPrinter printer = new ResultPrinter(out);
    return CommandRunner.run(
        spec,
        cluster,
        CliException.FAILED,
        () -> InstallManifests.render(settings),
        (client, objects) ->
            WorkerPool.run(
                16,
                pool -> run(client, new Installer(client, pool, printer), objects, sync, printer)));
  }

  private int run(
      KubernetesClient client,
      Installer installer,
      List<GenericKubernetesResource> components,
      SyncManifests sync,
      ResultPrinter printer) {
    String namespace = sync.namespace();
    GitCredentials.Resolved git = credentials.resolve(client, namespace);
    String commit =
        new RepositoryUpdate(url, branch, git.data(), timeout, printer)
            .update(
                sync.path() + "/" + namespace,
                InstallManifests.yaml(components),
                InstallManifests.yaml(sync.objects()),
                new PersonIdent(authorName, authorEmail));
    if (!installer.install(components, namespace, timeout, true)) {
      return 1;
    }
    git.createSecret(client, namespace, printer);
    if (!installer.install(sync.objects(), namespace, timeout, false)) {
      return 1;
    }
    return new SyncWait(client, printer, Clock.systemUTC())
            .await(namespace, namespace, commit, timeout)
        ? 0
        : 1;
  }

  /** The URL is committed to Git and written into the GitRepository: no password may be in it. */
  static void refusePasswordInUrl(String url) {
    String userInfo;
    try {
      userInfo = URI.create(url).getRawUserInfo();
    } catch (IllegalArgumentException e) {
      return; // scp-like SSH addresses are no URI; the clone says what is wrong with them
    }
    if (userInfo != null && userInfo.contains(":")) {
      throw new CliException(
          "--url holds a password, which would be committed to the repository; give it with"
              + " --username and --password instead",
          CliException.BAD_INPUT);
    }
  }
}
