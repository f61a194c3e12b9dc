package dev.capstan.engine.cli;

import dev.capstan.applier.cli.KubeconfigProblem;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
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
      config = readable(kubeconfig.toString(), () -> Config.fromKubeconfig(context, kubeconfig.toFile()));
    } else {
      requireSomeConfiguration();
      config = readable("from $KUBECONFIG or ~/.kube/config", () -> Config.autoConfigure(context));
    }
    // A command line answers at once: one attempt per request, the caller reports the failure.
    config.setRequestRetryBackoffLimit(0);
    config.setConnectionTimeout(5_000);
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** The parsed kubeconfig, or one line saying why it could not be read (never the file's text). */
  private static Config readable(String which, Supplier<Config> parse) {
    try {
      return parse.get();
    } catch (RuntimeException e) {
      throw new CliException(KubeconfigProblem.unreadable(which, e));
    }
  }

  // Without any kubeconfig the client would quietly aim at https://kubernetes.default.svc.
  private static void requireSomeConfiguration() {
    String env = System.getenv("KUBECONFIG");
    boolean fromEnv = env != null && !env.isBlank();
    boolean fromHome = Files.isReadable(Path.of(System.getProperty("user.home"), ".kube", "config"));
    boolean inCluster = System.getenv("KUBERNETES_SERVICE_HOST") != null;
    if (!fromEnv && !fromHome && !inCluster) {
      throw new CliException("no kubeconfig: pass --kubeconfig PATH or set KUBECONFIG"
          + " (~/.kube/config does not exist)");
    }
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
