package dev.capstan.cli.objects;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.SourceReference;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSourceReference;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code capstan reconcile ks|gitrepo|ocirepo|helmrepo|hr NAME}: asks the controller to reconcile
 * now and waits for the outcome.
 */
@Command(
    name = "reconcile",
    mixinStandardHelpOptions = true,
    description = {
      "Ask for an immediate reconcile and wait until the controller has handled it.",
      "Sets the annotation "
          + ReconcileRequest.ANNOTATION
          + " and waits until"
          + " status.lastHandledReconcileAt echoes it, then prints the Ready condition.",
      "Exit status: 0 Ready, 1 not Ready, timed out or not found, 2 bad input."
    })
public final class ReconcileCommand implements Callable<Integer> {

  @Mixin ObjectArguments target = new ObjectArguments();

  @Option(
      names = "--with-source",
      description =
          "Reconcile the Kustomization's or HelmChart's source first (fetch the latest commit,"
              + " artifact or index).")
  boolean withSource;

  @Mixin ReconcileTimeout timeout = new ReconcileTimeout();

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  private final Clock clock;

  public ReconcileCommand() {
    this(Clock.systemUTC());
  }

  ReconcileCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    return CommandRunner.run(spec, cluster, this::reconcile);
  }

  private int reconcile(KubernetesClient client, PrintWriter out, PrintWriter err) {
    if (withSource
        && target.kind != CapstanKind.KUSTOMIZATION
        && target.kind != CapstanKind.HELM_CHART) {
      throw new CliException(
          "--with-source applies to Kustomizations and HelmCharts only", CliException.BAD_INPUT);
    }
    String ns = target.namespace(client);
    CapstanKind<?> kind = target.kind;
    String name = target.name;
    CapstanResources resources = new CapstanResources(client);
    ReconcileWaiter requester = new ReconcileWaiter(resources, clock, out);
    if (withSource) {
      Source source =
          kind == CapstanKind.HELM_CHART
              ? chartSource(resources, ns, name)
              : kustomizationSource(resources, ns, name);
      notSuspended(resources, source.kind(), source.namespace(), source.name());
      if (!report(
          requester.requestAndWait(
              source.kind(), source.namespace(), source.name(), timeout.duration()),
          out,
          err)) {
        return CliException.FAILED;
      }
    }
    notSuspended(resources, kind, ns, name);
    return report(requester.requestAndWait(kind, ns, name, timeout.duration()), out, err)
        ? 0
        : CliException.FAILED;
  }

  /** The source {@code --with-source} reconciles first. */
  private record Source(CapstanKind<?> kind, String namespace, String name) {}

  private static Source kustomizationSource(CapstanResources resources, String ns, String name) {
    Kustomization ks = notSuspended(resources, CapstanKind.KUSTOMIZATION, ns, name);
    SourceReference source = ks.getSpec().sourceRef();
    if (source == null || source.name() == null) {
      throw new CliException("Kustomization " + name + " has no spec.sourceRef");
    }
    String sourceNs =
        source.namespace() == null || source.namespace().isEmpty() ? ns : source.namespace();
    if (source.kind() == SourceReference.SourceKind.ExternalArtifact) {
      throw new CliException(
          "--with-source: an ExternalArtifact is reconciled by the controller that produces it",
          CliException.BAD_INPUT);
    }
    CapstanKind<?> sourceKind =
        source.kind() == SourceReference.SourceKind.OCIRepository
            ? CapstanKind.OCI_REPOSITORY
            : source.kind() == SourceReference.SourceKind.Bucket
                ? CapstanKind.BUCKET
                : CapstanKind.GIT_REPOSITORY;
    return new Source(sourceKind, sourceNs, source.name());
  }

  /** A HelmChart's HelmRepository or GitRepository, in its own namespace. */
  private static Source chartSource(CapstanResources resources, String ns, String name) {
    HelmChart chart = notSuspended(resources, CapstanKind.HELM_CHART, ns, name);
    HelmChartSourceReference source = chart.getSpec().sourceRef();
    if (source == null || source.name() == null || source.kind() == null) {
      throw new CliException("HelmChart " + name + " has no spec.sourceRef");
    }
    if (source.kind() == HelmChartSourceReference.Kind.Bucket) {
      throw new CliException(
          "--with-source: this engine builds no HelmChart from a Bucket", CliException.BAD_INPUT);
    }
    CapstanKind<?> sourceKind =
        source.kind() == HelmChartSourceReference.Kind.HelmRepository
            ? CapstanKind.HELM_REPOSITORY
            : CapstanKind.GIT_REPOSITORY;
    return new Source(sourceKind, ns, source.name());
  }

  private static <T extends HasMetadata> T notSuspended(
      CapstanResources resources, CapstanKind<T> kind, String ns, String name) {
    T object = resources.get(kind, ns, name);
    if (kind.view(object).suspended()) {
      throw new CliException(
          kind.kind()
              + " "
              + name
              + " is suspended: resume it with `capstan resume "
              + kind.aliases().get(0)
              + " "
              + name
              + " -n "
              + ns
              + "`");
    }
    return object;
  }

  static boolean report(ReconcileReport outcome, PrintWriter out, PrintWriter err) {
    if (outcome.succeeded()) {
      out.println(outcome.message());
    } else {
      err.println("error: " + outcome.message());
    }
    out.flush();
    err.flush();
    return outcome.succeeded();
  }
}
