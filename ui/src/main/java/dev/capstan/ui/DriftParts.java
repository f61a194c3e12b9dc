package dev.capstan.ui;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.common.Polling;
import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.engine.kustomization.ReferenceRules;
import dev.capstan.engine.kustomization.RevisionBuild;
import dev.capstan.source.git.GitSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;

/**
 * What the view's drift comparisons own: a Git store of its own in a temporary directory (the
 * engine's store is not the view's to read), a build instance, and bounded thread pools.
 */
record DriftParts(
    Path store, ManifestBuilder builder, ExecutorService diffPool, DriftCheck check, DriftView view)
    implements AutoCloseable {
  /** Comparisons at once; more wait their turn (their deadline runs meanwhile). */
  static final int COMPARISONS = 2;

  /** Dry-run requests in flight over all comparisons. */
  static final int DRY_RUNS = 4;

  static DriftParts start(
      Catalog catalog,
      KubernetesClient client,
      ReferenceRules rules,
      ScheduledExecutorService timer,
      Duration timeout,
      Clock clock) {
    Path store;
    try {
      store = Files.createTempDirectory("capstan-ui-sources-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for fetched sources", e);
    }
    // Remote URLs only, as the engine's store: a GitRepository naming a local path gets nothing
    // here (DriftTargets refuses it before, by the same rule).
    GitSource git = new GitSource(ReferenceRules.gitRepositoryStore(store, clock));
    // What a tenant committed, built on the user's machine: in the kernel's sandbox where there
    // is one, reading the fetched trees only.
    ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.engine(1), BuildSandbox.forUser(git.artifactsDirectory()));
    ExecutorService diffPool = Executors.newFixedThreadPool(DRY_RUNS, daemon("capstan-ui-dry-run"));
    DriftTargets targets = new DriftTargets(catalog, rules);
    DriftCheck check =
        new DriftCheck(
            new DriftComputation(
                targets,
                client,
                new RevisionBuild(git, builder),
                ResourceManager.recent(client, diffPool, Polling.system()),
                clock),
            Executors.newFixedThreadPool(COMPARISONS, daemon("capstan-ui-drift")),
            timer,
            timeout,
            clock);
    return new DriftParts(store, builder, diffPool, check, new DriftView(targets, check));
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  @Override
  public void close() {
    check.close();
    diffPool.shutdownNow();
    builder.close();
    try (Stream<Path> files = Files.walk(store)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // A temporary directory; the system cleans what is left.
    }
  }
}
