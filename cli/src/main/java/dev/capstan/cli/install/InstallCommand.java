package dev.capstan.cli.install;

import dev.capstan.cli.apply.ResultPrinter;
import dev.capstan.cli.apply.WorkerPool;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.options.DurationConverter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code capstan install}: the CRDs and the engine, from deploy/ as the jar was built with it. */
@Command(
    name = "install",
    mixinStandardHelpOptions = true,
    description = {
      "Install or upgrade Capstan's CRDs and engine with server-side apply (field manager"
          + " capstan), or print them with --export.",
      "Exit status: 0 installed, 1 an object failed or did not become ready, 2 bad input."
    })
public final class InstallCommand implements Callable<Integer> {

  @Mixin InstallOptions install = new InstallOptions();

  @Option(
      names = "--export",
      description = "Print the manifests (a multi-document YAML stream) instead of applying them.")
  boolean export;

  @Option(
      names = "--dry-run",
      description = "Show what applying would change (server-side dry run); change nothing.")
  boolean dryRun;

  @Option(
      names = "--wait",
      negatable = true,
      arity = "0..1",
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Wait until the CRDs are Established and the Deployment Available (default: true;"
              + " --no-wait or --wait=false skips it).")
  boolean wait;

  @Option(
      names = "--timeout",
      defaultValue = "5m",
      converter = DurationConverter.class,
      paramLabel = "D",
      description = "Time limit for the CRDs and the wait. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    InstallSettings settings = install.settings();
    if (export) {
      out.print(InstallManifests.yaml(InstallManifests.render(settings)));
      out.flush();
      return 0;
    }
    return CommandRunner.run(
        spec,
        cluster,
        CliException.FAILED,
        () -> InstallManifests.render(settings),
        (client, objects) ->
            WorkerPool.run(
                16, pool -> run(new Installer(client, pool, new ResultPrinter(out)), objects)));
  }

  private int run(Installer installer, List<GenericKubernetesResource> objects) {
    String namespace = install.settings().namespace();
    if (dryRun) {
      return installer.dryRun(objects, namespace) ? 0 : 1;
    }
    return installer.install(objects, namespace, timeout, wait) ? 0 : 1;
  }
}
