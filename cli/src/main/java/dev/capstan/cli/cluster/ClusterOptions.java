package dev.capstan.cli.cluster;

import dev.capstan.engine.cache.SharedStrings;
import dev.capstan.kube.TokenRefresh;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * How every command that talks to a cluster finds it, as kubectl does: {@code --kubeconfig} (else
 * $KUBECONFIG, then ~/.kube/config, then the in-cluster service account) and {@code --context}. The
 * one place a command line builds its client.
 */
public final class ClusterOptions {

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

  /**
   * The client configuration of the chosen kubeconfig and context.
   *
   * @throws KubeconfigProblem in one line when there is none or it cannot be read
   */
  private Config config() {
    if (kubeconfig != null) {
      if (!Files.isReadable(kubeconfig)) {
        throw new KubeconfigProblem(
            "kubeconfig " + kubeconfig + " does not exist or cannot be read");
      }
      return readable(
          kubeconfig.toString(), () -> Config.fromKubeconfig(context, kubeconfig.toFile()));
    }
    requireSomeConfiguration();
    return readable("from $KUBECONFIG or ~/.kube/config", () -> Config.autoConfigure(context));
  }

  /**
   * A client for a command that answers at once: a short connect timeout and three quick retries
   * (0.1, 0.2, 0.4 s), so that a cluster that is not there is reported within seconds instead of
   * retried for minutes, while an API server that sheds load for a moment (429, 5xx) during a large
   * apply is ridden out. Closing it waits until its HTTP event loops have stopped.
   */
  CommandClient open() {
    Config config = config();
    config.setRequestRetryBackoffLimit(3);
    config.setRequestRetryBackoffInterval(100);
    config.setConnectionTimeout(5_000);
    return CommandClient.open(config);
  }

  /**
   * A client for the controller, which runs until stopped: the library's retries and timeouts, and
   * one copy of each value its caches' objects repeat ({@link SharedStrings}).
   */
  public KubernetesClient openForController() {
    Config config = config();
    config.setUserAgent(userAgent());
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withKubernetesSerialization(SharedStrings.serialization())
        .withHttpClientBuilderConsumer(TokenRefresh.forConfig(config))
        .build();
  }

  /**
   * How the engine names itself to the API server (its audit log shows it): {@code
   * capstan/VERSION}, or what fabric8's own {@code kubernetes.user.agent} property or {@code
   * KUBERNETES_USER_AGENT} variable says, which a kubeconfig read from a path would ignore.
   */
  static String userAgent() {
    String given =
        System.getProperty("kubernetes.user.agent", System.getenv("KUBERNETES_USER_AGENT"));
    if (given != null && !given.isBlank()) {
      return given;
    }
    String version = ClusterOptions.class.getPackage().getImplementationVersion();
    return "capstan/" + (version == null ? "dev" : version);
  }

  /** The namespace given with -n, else the context's namespace, else "default". */
  public static String namespace(KubernetesClient client, String explicit) {
    if (explicit != null && !explicit.isBlank()) {
      return explicit;
    }
    String fromContext = client.getNamespace();
    return fromContext == null || fromContext.isBlank() ? "default" : fromContext;
  }

  /** The parsed kubeconfig, or one line saying why it could not be read (never the file's text). */
  private static Config readable(String which, Supplier<Config> parse) {
    try {
      return parse.get();
    } catch (RuntimeException e) {
      throw KubeconfigProblem.unreadable(which, e);
    }
  }

  // Without any kubeconfig the client would quietly aim at https://kubernetes.default.svc.
  private static void requireSomeConfiguration() {
    String env = System.getenv("KUBECONFIG");
    boolean fromEnv = env != null && !env.isBlank();
    boolean fromHome =
        Files.isReadable(Path.of(System.getProperty("user.home"), ".kube", "config"));
    boolean inCluster = System.getenv("KUBERNETES_SERVICE_HOST") != null;
    if (!fromEnv && !fromHome && !inCluster) {
      throw new KubeconfigProblem(
          "no kubeconfig: pass --kubeconfig PATH or set KUBECONFIG"
              + " (~/.kube/config does not exist)");
    }
  }
}
