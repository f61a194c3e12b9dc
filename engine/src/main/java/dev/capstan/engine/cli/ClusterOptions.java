package dev.capstan.engine.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** How the cluster commands find the cluster: the kubeconfig and its context, as kubectl does. */
final class ClusterOptions {

  @Option(
      names = "--kubeconfig",
      paramLabel = "PATH",
      description = "Kubeconfig file (default: $KUBECONFIG, then ~/.kube/config).")
  Path kubeconfig;

  @Option(
      names = "--context",
      paramLabel = "NAME",
      description = "Kubeconfig context to use (default: its current context).")
  String context;

  /** A client for the chosen kubeconfig and context; fails fast instead of retrying for minutes. */
  KubernetesClient open() {
    Config config;
    if (kubeconfig != null) {
      if (!Files.isReadable(kubeconfig)) {
        throw new CliException("kubeconfig " + kubeconfig + " does not exist or cannot be read");
      }
      config = Config.fromKubeconfig(context, kubeconfig.toFile());
    } else {
      config = Config.autoConfigure(context);
    }
    // A command line answers at once: one attempt per request, the caller reports the failure.
    config.setRequestRetryBackoffLimit(0);
    config.setConnectionTimeout(5_000);
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** The namespace given with -n, else the context's namespace, else "default". */
  static String namespace(KubernetesClient client, String explicit) {
    if (explicit != null && !explicit.isBlank()) {
      return explicit;
    }
    String fromContext = client.getNamespace();
    return fromContext == null || fromContext.isBlank() ? "default" : fromContext;
  }
}
