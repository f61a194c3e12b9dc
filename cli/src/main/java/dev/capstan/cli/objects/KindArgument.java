package dev.capstan.cli.objects;

import dev.capstan.cli.cluster.ClusterOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code KIND [-n NS]} arguments every command on Capstan's objects takes: which kind
 * (Kustomization, GitRepository or OCIRepository) and in which namespace.
 */
class KindArgument {

  @Parameters(
      index = "0",
      paramLabel = "KIND",
      converter = KindConverter.class,
      description =
          "ks | kustomizations | gitrepo | gitrepositories | ocirepo | ocirepositories | helmrepo"
              + " | helmrepositories | hc | helmcharts | bucket | buckets | hr | helmreleases")
  CapstanKind<?> kind;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description = "Namespace (default: the kubeconfig context's, else default).")
  String namespace;

  /** The namespace given, else the kubeconfig context's, else default. */
  String namespace(KubernetesClient client) {
    return ClusterOptions.namespace(client, namespace);
  }
}
