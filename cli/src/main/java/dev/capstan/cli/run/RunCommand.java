package dev.capstan.cli.run;

import dev.capstan.applier.apply.ApplyPolicy;
import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.options.DurationConverter;
import dev.capstan.engine.Engine;
import dev.capstan.engine.EngineOptions;
import dev.capstan.engine.EngineStartFailed;
import dev.capstan.engine.FeatureGates;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.ops.OperationsExtension;
import dev.capstan.engine.ops.OperationsSettings;
import dev.capstan.engine.ops.leader.LeaderElection;
import dev.capstan.engine.shard.ShardOptions;
import dev.capstan.engine.webhook.WebhookExtension;
import dev.capstan.sharding.ShardKey;
import dev.capstan.source.oci.ArtifactUrlPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code capstan run}: the controllers, for all namespaces, until stopped. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Run the controller for all namespaces until interrupted.")
public final class RunCommand implements Callable<Integer> {

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Option(
      names = "--metrics-addr",
      defaultValue = ":8080",
      paramLabel = "ADDR",
      description = "Address of /metrics, /healthz and /readyz. Default: ${DEFAULT-VALUE}.")
  String metricsAddress;

  @Option(
      names = "--webhook-addr",
      defaultValue = ":9292",
      paramLabel = "ADDR",
      description = "Address of the webhook receivers. Default: ${DEFAULT-VALUE}.")
  String webhookAddress;

  @Option(
      names = "--webhook-config",
      paramLabel = "FILE",
      description =
          "Webhook receivers (YAML; see deploy/install/README.md). Without it no receivers are"
              + " served.")
  Path webhookConfig;

  @Option(
      names = "--leader-elect",
      description = "Take a coordination Lease so that only one replica reconciles.")
  boolean leaderElect;

  @Option(
      names = "--shards",
      description =
          "Share the Kustomizations with the other replicas of the same --shard-group: each"
              + " holds a Lease, the live Leases decide who owns which hash slots, and a slot"
              + " changes hands only after its old owner let it go or its Lease expired.")
  boolean shards;

  @Option(
      names = "--replica-name",
      paramLabel = "NAME",
      description = "This replica's name among the shards. Default: the pod's name (POD_NAME).")
  String replicaName;

  @Option(
      names = "--shard-group",
      paramLabel = "NAME",
      description = "The replicas that share the work: one per installation. Default: capstan.")
  String shardGroup;

  @Option(
      names = "--shard-by",
      paramLabel = "KEY",
      description =
          "What places a Kustomization in a slot: uid (an even spread) or namespace (a tenant's"
              + " Kustomizations and sources together). Default: ${DEFAULT-VALUE}.")
  String shardBy = "uid";

  @Option(
      names = "--watch-label-selector",
      paramLabel = "SEL",
      description = "Only reconcile objects matching this label selector.")
  String watchLabelSelector;

  @Option(
      names = "--default-service-account",
      paramLabel = "NAME",
      description =
          "Service account (in the Kustomization's namespace) to act as for Kustomizations without"
              + " spec.serviceAccountName.")
  String defaultServiceAccount;

  @Option(
      names = "--no-cross-namespace-refs",
      description =
          "Refuse a sourceRef or dependsOn to another namespace than the Kustomization's; such a"
              + " dependsOn does not hold a deletion either.")
  boolean noCrossNamespaceRefs;

  @Option(
      names = "--artifact-url-allow-prefix",
      paramLabel = "URL",
      description =
          "An ExternalArtifact URL the engine may download from: one under this prefix (scheme,"
              + " host, port and path compared), whatever address its host has. May be repeated;"
              + " with any given, a URL under none is refused. Without any, every http(s) URL is"
              + " allowed except those of loopback, link-local and cloud metadata addresses.")
  List<String> artifactUrlAllowPrefixes = List.of();

  @Option(
      names = "--no-unlisted-artifact-urls",
      description =
          "Refuse every ExternalArtifact URL no --artifact-url-allow-prefix admits, also when"
              + " none is given (as the multi-tenant install runs).")
  boolean noUnlistedArtifactUrls;

  // Not a shared directory such as /tmp, where another user could read the artifacts or plant
  // their own; one the engine creates is readable by its own user only.
  @Option(
      names = "--storage-path",
      paramLabel = "DIR",
      description = "Where fetched artifacts are stored (default: ${DEFAULT-VALUE}).",
      defaultValue = "${sys:user.home}/.cache/capstan/artifacts")
  Path storagePath;

  @Option(
      names = "--build-timeout",
      paramLabel = "DURATION",
      defaultValue = "30s",
      converter = DurationConverter.class,
      description = "How long one build may run before it is stopped. Default: ${DEFAULT-VALUE}.")
  Duration buildTimeout;

  @Option(
      names = "--build-max-memory",
      paramLabel = "MIB",
      defaultValue = "1024",
      description =
          "Memory one build may use, in MiB (at least 64): the whole worker process that runs it."
              + " Default: ${DEFAULT-VALUE}.")
  int buildMaxMemoryMib;

  @Option(
      names = "--build-workers",
      paramLabel = "N",
      description =
          "Builds that may run at once, each in a worker process of its own (another worker"
              + " starts when a build has waited 0.5 s for a busy one). Default: one per core, at"
              + " most four. Chart renders (HelmReleases) run half as many at once, at least one.")
  Integer buildWorkers;

  @Option(
      names = "--allow-unconfined-builds",
      description =
          "Build even where the kernel cannot confine the build workers (no Landlock: Linux"
              + " before 5.13, or Landlock off). Without it such an engine builds nothing; with it"
              + " every Kustomization's Ready condition says its build ran unconfined.")
  boolean allowUnconfinedBuilds;

  @Option(
      names = "--feature-gates",
      paramLabel = "GATES",
      description =
          "Feature gates, Name=true|false, comma-separated (the flag may be repeated):"
              + " StrictPostBuildSubstitutions (default true), CancelHealthCheckOnNewRevision"
              + " (default true; false in Flux), DisableConfigWatchers (default false).")
  List<String> featureGates = List.of();

  @Option(
      names = "--watch-configs-label-selector",
      paramLabel = "SEL",
      defaultValue = EngineOptions.Reconciling.WATCH_LABEL_SELECTOR,
      description =
          "ConfigMaps and Secrets whose changes reconcile the Kustomizations that read them"
              + " (postBuild.substituteFrom, decryption and kubeConfig); empty: all of them."
              + " Default: ${DEFAULT-VALUE}.")
  String watchConfigsLabelSelector;

  @Option(
      names = "--custom-apply-stage-kinds",
      paramLabel = "KINDS",
      description =
          "Kinds applied in a stage of their own, after CRDs and Namespaces and before everything"
              + " else: comma-separated group/Kind, or Kind for the core group, e.g."
              + " rbac.authorization.k8s.io/Role,ServiceAccount.")
  String customApplyStageKinds;

  @Option(
      names = "--override-manager",
      paramLabel = "NAME",
      description =
          "A field manager (name prefix) whose fields on applied objects Capstan takes over, so"
              + " that what it does not apply is removed. May be repeated.")
  List<String> overrideManagers = List.of();

  @Option(
      names = "--sops-age-secret",
      paramLabel = "NAME",
      description =
          "A Secret of the engine's namespace (POD_NAMESPACE, else the kubeconfig's) whose .agekey"
              + " entries decrypt for every Kustomization with spec.decryption and no secretRef.")
  String sopsAgeSecret;

  @Spec CommandSpec spec;

  /** Creates {@code dir}, if missing, readable and writable by this process's user only. */
  static void createPrivately(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    Path absolute = dir.toAbsolutePath();
    if (absolute.getParent() != null) {
      Files.createDirectories(absolute.getParent());
    }
    try {
      Files.createDirectory(
          absolute,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      Files.createDirectory(absolute); // a file system without POSIX permissions
    }
  }

  /** The reconcile settings of the flags; the age Secret is in the engine's namespace. */
  private EngineOptions.Reconciling reconciling(
      KubernetesClient client, FeatureGates gates, ApplyPolicy applyPolicy) {
    Optional<NamespacedName> ageSecret =
        Optional.ofNullable(sopsAgeSecret)
            .filter(name -> !name.isBlank())
            .map(name -> new NamespacedName(engineNamespace(client), name.strip()));
    return new EngineOptions.Reconciling(gates, applyPolicy, ageSecret, watchConfigsLabelSelector);
  }

  /** The pod's namespace in a cluster, else the kubeconfig context's, else default. */
  private static String engineNamespace(KubernetesClient client) {
    String pod = System.getenv("POD_NAMESPACE");
    if (pod != null && !pod.isBlank()) {
      return pod;
    }
    return client.getNamespace() == null ? "default" : client.getNamespace();
  }

  @Override
  public Integer call() {
    try {
      return runController();
    } catch (IllegalArgumentException e) {
      return fail(new CliException(e.getMessage(), CliException.BAD_INPUT));
    } catch (EngineStartFailed e) {
      return fail(new CliException(e.getMessage()));
    } catch (UncheckedIOException e) {
      return fail(new CliException(e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CliException.FAILED;
    } catch (RuntimeException e) {
      return fail(e);
    }
  }

  private int fail(RuntimeException e) {
    return CommandRunner.fail(spec.commandLine().getErr(), e, null, CliException.FAILED);
  }

  private int runController() throws InterruptedException {
    try {
      createPrivately(storagePath);
    } catch (IOException e) {
      throw new CliException(
          "cannot create --storage-path " + storagePath + ": " + e.getMessage(),
          CliException.BAD_INPUT);
    }
    if (buildMaxMemoryMib < 64) {
      throw new CliException(
          "--build-max-memory must be at least 64 (MiB)", CliException.BAD_INPUT);
    }
    if (buildWorkers != null && buildWorkers < 1) {
      throw new CliException("--build-workers must be at least 1", CliException.BAD_INPUT);
    }
    EngineOptions defaults = EngineOptions.defaults(storagePath);
    BuildLimits limits =
        defaults
            .builds()
            .limits()
            .withTimeout(buildTimeout)
            .withMaxMemoryBytes(buildMaxMemoryMib * 1024L * 1024L);
    if (buildWorkers != null) {
      limits = limits.withWorkers(buildWorkers);
    }
    // a flag's value the engine refuses (IllegalArgumentException) is bad input
    FeatureGates gates = FeatureGates.parse(featureGates);
    ApplyPolicy applyPolicy =
        new ApplyPolicy(ApplyPolicy.parseKinds(customApplyStageKinds), overrideManagers);
    EngineOptions options =
        defaults
            .withBuilds(new EngineOptions.Builds(limits, allowUnconfinedBuilds))
            .withWatchLabelSelector(Optional.ofNullable(watchLabelSelector))
            .withAddresses(metricsAddress, webhookAddress)
            .withLeaderElect(leaderElect)
            .withSharding(sharding())
            .withTenancy(
                new EngineOptions.Tenancy(
                    Optional.ofNullable(defaultServiceAccount),
                    noCrossNamespaceRefs,
                    ArtifactUrlPolicy.of(artifactUrlAllowPrefixes, noUnlistedArtifactUrls)));
    OperationsSettings settings =
        OperationsSettings.of(metricsAddress, webhookAddress, webhookConfig);
    OperationsExtension operations =
        new OperationsExtension(
            settings, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), options.clock());
    // the receivers start before, and stop before, the Events and probes of the operations
    WebhookExtension webhooks =
        new WebhookExtension(settings, operations.metrics(), options.clock());
    CountDownLatch stopped = new CountDownLatch(1);
    try (KubernetesClient client = cluster.openForController();
        Engine engine =
            new Engine(
                options.withReconciling(reconciling(client, gates, applyPolicy)),
                client,
                List.of(webhooks, operations))) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    engine.close();
                    stopped.countDown();
                  },
                  "capstan-shutdown"));
      engine.start();
      stopped.await();
      return 0;
    }
  }

  /** The sharding options of --shards; the replica is named as leader election names it. */
  private Optional<ShardOptions> sharding() {
    if (!shards) {
      return Optional.empty();
    }
    if (leaderElect) {
      throw new IllegalArgumentException("--shards and --leader-elect exclude each other");
    }
    String name =
        replicaName != null
            ? replicaName
            : dnsLabel(
                LeaderElection.defaultIdentity(Optional.ofNullable(System.getenv("POD_NAME"))));
    ShardKey key =
        switch (shardBy) {
          case "uid" -> ShardKey.UID;
          case "namespace" -> ShardKey.NAMESPACE;
          default -> throw new IllegalArgumentException("--shard-by must be uid or namespace");
        };
    return Optional.of(new ShardOptions(name, shardGroup, Optional.empty(), key, null, null, null));
  }

  /** A pod's or host's name as a DNS label: lower case, other characters '-', 63 at most. */
  private static String dnsLabel(String name) {
    String label = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    label = label.length() > 63 ? label.substring(label.length() - 63) : label;
    return label.replaceAll("^-+|-+$", "");
  }
}
