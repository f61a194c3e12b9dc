package dev.capstan.cli.objects;

import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.status.Table;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code capstan get ks|gitrepo|ocirepo|helmrepo|hc|bucket|hr [NAME]}: a table of Kustomizations,
 * GitRepositories, OCIRepositories, HelmRepositories, HelmCharts, Buckets or HelmReleases.
 */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description = {
      "List Kustomizations, GitRepositories, OCIRepositories, HelmRepositories, HelmCharts,"
          + " Buckets or HelmReleases with their Ready status and revision.",
      "KIND is ks (kustomizations), gitrepo (gitrepositories), ocirepo (ocirepositories),"
          + " helmrepo (helmrepositories), hc (helmcharts), bucket (buckets) or hr"
          + " (helmreleases).",
      "Exit status: 0 listed, 1 not found or the cluster failed, 2 bad input."
    })
public final class GetCommand implements Callable<Integer> {
  private static final String NONE = "-";

  @Mixin KindArgument of = new KindArgument();

  // unlike the other commands' NAME (ObjectArguments), optional: without it, get lists
  @Parameters(index = "1", arity = "0..1", paramLabel = "NAME", description = "Only this object.")
  String name;

  @Option(
      names = {"-A", "--all-namespaces"},
      description = "List in every namespace.")
  boolean allNamespaces;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description =
          "wide: also DEPENDS-ON, KUBECONFIG, DECRYPTION, DRIFTED, REPLICA and HISTORY (ks),"
              + " VERIFIED and INCLUDES (gitrepo), VERIFIED and ORIGIN (ocirepo), TYPE (helmrepo),"
              + " CHART and SOURCE (hc), PROVIDER and PREFIX (bucket), CHART and RELEASE (hr).")
  String output;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  private final Clock clock;

  public GetCommand() {
    this(Clock.systemUTC());
  }

  GetCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    return CommandRunner.run(spec, cluster, this::get);
  }

  private int get(KubernetesClient client, PrintWriter out, PrintWriter err) {
    if (allNamespaces && name != null) {
      throw new CliException(
          "a NAME cannot be combined with --all-namespaces", CliException.BAD_INPUT);
    }
    if (output != null && !"wide".equals(output)) {
      throw new CliException(
          "unknown output format '" + output + "': expected wide", CliException.BAD_INPUT);
    }
    CapstanKind<?> kind = of.kind;
    String ns = allNamespaces ? null : of.namespace(client);
    List<ResourceView> views = views(new CapstanResources(client), kind, ns);
    if (views.isEmpty()) {
      err.println(
          "No "
              + kind.kind()
              + " objects found"
              + (ns == null ? "." : " in namespace " + ns + "."));
      return 0;
    }
    table(kind, views, allNamespaces, output != null, clock.instant())
        .lines()
        .forEach(out::println);
    return 0;
  }

  private <T extends HasMetadata> List<ResourceView> views(
      CapstanResources resources, CapstanKind<T> kind, String ns) {
    List<T> objects =
        name != null ? List.of(resources.get(kind, ns, name)) : resources.list(kind, ns);
    return objects.stream().map(kind::view).toList();
  }

  /**
   * The table for a list of objects of one kind; with {@code allNamespaces} a NAMESPACE column
   * leads, with {@code wide} the views' extra columns follow.
   */
  static Table table(
      CapstanKind<?> kind,
      List<ResourceView> views,
      boolean allNamespaces,
      boolean wide,
      Instant now) {
    boolean ks = kind == CapstanKind.KUSTOMIZATION;
    List<String> headers = new ArrayList<>();
    if (allNamespaces) {
      headers.add("NAMESPACE");
    }
    headers.addAll(
        ks
            ? List.of("NAME", "READY", "HEALTHY", "REVISION", "SUSPENDED", "STATUS", "AGE")
            : List.of("NAME", "URL", "READY", "REVISION", "SUSPENDED", "STATUS", "AGE"));
    if (wide && !views.isEmpty()) {
      views.get(0).wide().forEach(c -> headers.add(c.header()));
    }
    Table table = new Table(headers);
    for (ResourceView view : views) {
      List<String> row = new ArrayList<>();
      if (allNamespaces) {
        row.add(view.namespace());
      }
      row.add(view.name());
      if (ks) {
        row.add(orNone(view.conditionStatus(ResourceView.READY)));
        row.add(orNone(view.conditionStatus(ResourceView.HEALTHY)));
      } else {
        row.add(view.url());
        row.add(orNone(view.conditionStatus(ResourceView.READY)));
      }
      row.add(orNone(view.revision()));
      row.add(Boolean.toString(view.suspended()));
      row.add(view.condition(ResourceView.READY).map(Condition::getMessage).orElse(""));
      row.add(Age.since(view.creationTimestamp(), now));
      if (wide) {
        view.wide().forEach(c -> row.add(orNone(c.value())));
      }
      table.add(row);
    }
    return table;
  }

  private static String orNone(String value) {
    return value == null || value.isEmpty() ? NONE : value;
  }
}
