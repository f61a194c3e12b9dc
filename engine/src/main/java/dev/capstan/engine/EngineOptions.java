package dev.capstan.engine;

import dev.capstan.applier.apply.ApplyPolicy;
import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Backoff;
import dev.capstan.engine.shard.ShardOptions;
import dev.capstan.source.oci.ArtifactUrlPolicy;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the engine runs. The addresses and leader election are read by the extensions that serve them
 * (metrics, webhook receiver, leader election); the engine core only carries them.
 *
 * @param storageRoot where fetched artifacts are stored
 * @param watchLabelSelector when present, only Kustomizations and GitRepositories matching it
 * @param reconcileThreads reconciles running at once
 * @param applyThreads API requests in flight at once for applies and prunes
 * @param waitPoll how often a health wait looks again when no event came
 * @param healthDebounce how long the health monitor gathers events before evaluating
 * @param tenancy service account impersonation and the cross-namespace reference rule
 * @param builds what builds may use and whether they may run without the kernel's sandbox
 * @param reconciling the feature gates and Flux's controller-wide reconcile settings
 * @param sharding when present, this engine is one replica of several that share the Kustomizations
 *     (see the shard package); when empty, it reconciles all it watches
 * @param backoff how retries after a transient failure space out, up to each object's retry
 *     interval
 * @param cacheSyncTimeout how long a start waits for the controllers' caches to fill, their lists
 *     and watches tried again meanwhile (controller-runtime's default: two minutes)
 */
@RecordBuilder
public record EngineOptions(
    Path storageRoot,
    Optional<String> watchLabelSelector,
    Optional<String> metricsAddress,
    Optional<String> webhookAddress,
    boolean leaderElect,
    int reconcileThreads,
    int applyThreads,
    Duration waitPoll,
    Duration healthDebounce,
    Clock clock,
    Tenancy tenancy,
    Builds builds,
    Reconciling reconciling,
    Optional<ShardOptions> sharding,
    Backoff backoff,
    Duration cacheSyncTimeout)
    implements EngineOptionsBuilder.With {

  /**
   * Flux's controller-wide settings of how Kustomizations are reconciled.
   *
   * @param featureGates {@code --feature-gates}
   * @param applyPolicy {@code --custom-apply-stage-kinds} and {@code --override-manager}
   * @param sopsAgeSecret {@code --sops-age-secret}: the Secret whose {@code .agekey} entries
   *     decrypt for every Kustomization with {@code spec.decryption} and no {@code secretRef}
   * @param watchConfigsLabelSelector {@code --watch-configs-label-selector}: which ConfigMaps and
   *     Secrets are watched for changes (empty: all of them)
   */
  @RecordBuilder
  public record Reconciling(
      FeatureGates featureGates,
      ApplyPolicy applyPolicy,
      Optional<NamespacedName> sopsAgeSecret,
      String watchConfigsLabelSelector)
      implements EngineOptionsReconcilingBuilder.With {
    /** Flux's default selector of watched ConfigMaps and Secrets. */
    public static final String WATCH_LABEL_SELECTOR = "reconcile.fluxcd.io/watch=Enabled";

    public static final Reconciling DEFAULTS =
        new Reconciling(
            FeatureGates.defaults(), ApplyPolicy.DEFAULT, Optional.empty(), WATCH_LABEL_SELECTOR);

    public Reconciling {
      Objects.requireNonNull(featureGates, "featureGates");
      Objects.requireNonNull(applyPolicy, "applyPolicy");
      sopsAgeSecret = sopsAgeSecret == null ? Optional.empty() : sopsAgeSecret;
      watchConfigsLabelSelector =
          watchConfigsLabelSelector == null ? "" : watchConfigsLabelSelector.strip();
    }
  }

  /**
   * @param limits what one build may use, and how many run at once (by default one worker per core,
   *     at most four: a build only computes)
   * @param allowUnconfined whether builds may run where the kernel cannot confine them (Landlock),
   *     which the operator must ask for
   */
  public record Builds(BuildLimits limits, boolean allowUnconfined) {
    public Builds {
      Objects.requireNonNull(limits, "limits");
    }
  }

  /**
   * @param defaultServiceAccount the service account of Kustomizations and HelmReleases that name
   *     none; without it those act as the engine itself
   * @param noCrossNamespaceRefs refuse a sourceRef to another namespace
   * @param artifactUrls the URLs an ExternalArtifact's file may be downloaded from ({@code
   *     --artifact-url-allow-prefix}, {@code --no-unlisted-artifact-urls})
   */
  @RecordBuilder
  public record Tenancy(
      Optional<String> defaultServiceAccount,
      boolean noCrossNamespaceRefs,
      ArtifactUrlPolicy artifactUrls)
      implements EngineOptionsTenancyBuilder.With {
    public Tenancy {
      defaultServiceAccount =
          defaultServiceAccount == null
              ? Optional.empty()
              : defaultServiceAccount.filter(s -> !s.isBlank());
      artifactUrls = artifactUrls == null ? ArtifactUrlPolicy.DEFAULT : artifactUrls;
    }

    public Tenancy(Optional<String> defaultServiceAccount, boolean noCrossNamespaceRefs) {
      this(defaultServiceAccount, noCrossNamespaceRefs, ArtifactUrlPolicy.DEFAULT);
    }

    public static final Tenancy NONE = new Tenancy(Optional.empty(), false);
  }

  public EngineOptions {
    Objects.requireNonNull(storageRoot, "storageRoot");
    watchLabelSelector = watchLabelSelector == null ? Optional.empty() : watchLabelSelector;
    metricsAddress = metricsAddress == null ? Optional.empty() : metricsAddress;
    webhookAddress = webhookAddress == null ? Optional.empty() : webhookAddress;
    reconcileThreads = reconcileThreads <= 0 ? 10 : reconcileThreads;
    applyThreads = applyThreads <= 0 ? 16 : applyThreads;
    waitPoll = waitPoll == null ? Duration.ofSeconds(2) : waitPoll;
    healthDebounce = healthDebounce == null ? Duration.ofMillis(200) : healthDebounce;
    clock = clock == null ? Clock.systemUTC() : clock;
    tenancy = tenancy == null ? Tenancy.NONE : tenancy;
    builds =
        builds == null
            ? new Builds(
                BuildLimits.engine(Math.min(reconcileThreads, BuildLimits.defaultWorkers())), false)
            : builds;
    reconciling = reconciling == null ? Reconciling.DEFAULTS : reconciling;
    sharding = sharding == null ? Optional.empty() : sharding;
    backoff = backoff == null ? Backoff.defaults() : backoff;
    cacheSyncTimeout = cacheSyncTimeout == null ? Duration.ofMinutes(2) : cacheSyncTimeout;
  }

  public static EngineOptions defaults(Path storageRoot) {
    // every other component left unset: the constructor gives each its default
    return EngineOptionsBuilder.builder().storageRoot(storageRoot).build();
  }

  public EngineOptions withAddresses(String metrics, String webhook) {
    return withMetricsAddress(Optional.ofNullable(metrics))
        .withWebhookAddress(Optional.ofNullable(webhook));
  }

  public EngineOptions withBuildLimits(BuildLimits value) {
    return withBuilds(new Builds(value, builds.allowUnconfined()));
  }
}
