package dev.capstan.applier.kustomize;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.kustomize.chart.ChartRenderer;
import dev.capstan.kustomize.chart.ChartWorkerSettings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The build stage: Flux's build of a path of an artifact, run by kustomize's own code in a native
 * worker process (the kustomize-worker module). A directory without a kustomization gets the one
 * Flux generates (every manifest below it); the Kustomization's own fields are merged into it as
 * Flux merges them; then postBuild substitution and commonMetadata. The worker reads the artifact
 * where it lies on disk, within its {@link BuildSandbox}, and runs within {@link BuildLimits}.
 *
 * <p>Thread-safe; {@link #close()} stops its workers.
 */
public final class ManifestBuilder implements AutoCloseable {
  private final ObjectMapper mapper = new ObjectMapper();
  private final BuildWorkers workers;
  private final BuildSandbox sandbox;
  private final ResultCache results;
  private final BuildLimits limits;
  private final Duration growAfter;
  private ChartRenderer charts;
  private final AtomicBoolean buildsExpected = new AtomicBoolean();

  public ManifestBuilder(BuildLimits limits, BuildSandbox sandbox) {
    this(limits, sandbox, BuildWorkers.GROW_AFTER);
  }

  /**
   * A builder whose builds and chart renders wait {@code growAfter} for a busy worker before
   * starting another.
   */
  ManifestBuilder(BuildLimits limits, BuildSandbox sandbox, Duration growAfter) {
    this.sandbox = sandbox;
    this.limits = limits;
    this.growAfter = growAfter;
    this.workers = new BuildWorkers(limits, sandbox, growAfter);
    this.results = new ResultCache(limits.resultCacheBytes());
  }

  /** How many workers run now (for tests). */
  long workersRunning() {
    return workers.running();
  }

  /**
   * Starts a worker in the background the first time it is called (by the first Kustomization's
   * reconcile), so that the first build does not wait for it; an engine that builds nothing, such
   * as one with HelmReleases only, runs no build worker.
   */
  public void expectBuilds() {
    if (buildsExpected.compareAndSet(false, true)) {
      workers.warmUp();
    }
  }

  /**
   * Why builds run without the kernel's sandbox, where the sandbox allows that and the machine
   * cannot confine them; empty while builds are confined (or before the first worker started).
   */
  public Optional<String> unconfined() {
    return workers.unconfined();
  }

  /**
   * Builds {@code path} (relative to {@code root}) of an artifact that never changes under its
   * {@code digest}: the answers for unchanged inputs are kept. A {@link BuildResult.Built} holds
   * room of the builds' shared heap until it is closed.
   */
  public BuildResult build(Path root, String digest, String path, BuildOptions options) {
    return run(root, Optional.of(digest), path, KustomizeRequest.Output.OBJECTS, options, Map.of());
  }

  /**
   * As {@link #build(Path, String, String, BuildOptions)}, with some files of the artifact seen by
   * this build only with other content (paths relative to {@code root}, files the artifact has):
   * the decrypted inputs of a Kustomization's secretGenerators. They travel to the worker in the
   * request and are never written to disk; the result is not kept.
   */
  public BuildResult build(
      Path root,
      String digest,
      String path,
      BuildOptions options,
      Map<String, byte[]> replacedFiles) {
    Optional<String> cacheable = replacedFiles.isEmpty() ? Optional.of(digest) : Optional.empty();
    return run(root, cacheable, path, KustomizeRequest.Output.OBJECTS, options, replacedFiles);
  }

  /** Builds {@code path} of a directory that may change between builds; nothing is kept. */
  public BuildResult build(Path root, String path, BuildOptions options) {
    return run(root, Optional.empty(), path, KustomizeRequest.Output.OBJECTS, options, Map.of());
  }

  /**
   * As {@link #build(Path, String, BuildOptions)}, as kustomize prints it: {@link
   * BuildResult.Printed}.
   */
  public BuildResult print(Path root, String path, BuildOptions options) {
    return run(root, Optional.empty(), path, KustomizeRequest.Output.YAML, options, Map.of());
  }

  private BuildResult run(
      Path root,
      Optional<String> digest,
      String path,
      KustomizeRequest.Output output,
      BuildOptions options,
      Map<String, byte[]> replacedFiles) {
    try {
      KustomizeRequest request =
          KustomizeRequest.of(artifact(root), path, output, options, replacedFiles);
      byte[] json = request.toJson(mapper);
      Optional<ByteBuffer> key = digest.map(d -> ResultCache.key(d, request.root(), json));
      Optional<byte[]> known = key.flatMap(results::get);
      BuildWorkers.Answer answer =
          known.isPresent()
              ? workers.hold(known.get())
              : workers.call(json, request.holdsDecrypted());
      if (known.isEmpty()) {
        key.ifPresent(k -> results.put(k, answer.bytes()));
      }
      return result(answer, output);
    } catch (BuildException e) {
      return new BuildResult.Failed(e.error());
    }
  }

  /**
   * The answer read: a Built result holds the answer's room until it is closed, any other result
   * gives it back at once (as does a failure to read it).
   */
  private BuildResult result(BuildWorkers.Answer answer, KustomizeRequest.Output output) {
    BuildResult result;
    try {
      result =
          KustomizeResponse.parse(answer.bytes(), mapper)
              .toResult(output, KustomizeResponse.digest(answer.bytes()), answer.room());
    } catch (RuntimeException e) {
      answer.close();
      throw e;
    }
    if (!(result instanceof BuildResult.Built)) {
      answer.close();
    }
    return result;
  }

  /** The artifact's real path, which must lie below the sandbox's root. */
  private Path artifact(Path root) {
    if (!Files.isDirectory(root)) {
      throw new BuildException(BuildErrorKind.ARTIFACT, "the artifact is not in local storage");
    }
    try {
      Path real = root.toRealPath();
      if (!real.startsWith(sandbox.root().toRealPath())) {
        throw new BuildException(
            BuildErrorKind.ARTIFACT, "the artifact is outside the directory builds may read");
      }
      return real;
    } catch (IOException e) {
      throw new BuildException(BuildErrorKind.ARTIFACT, "the artifact cannot be read");
    }
  }

  /** The room no build's result holds now (for tests). */
  long answerRoomFree() {
    return workers.answerRoomFree();
  }

  /**
   * Helm charts rendered in chart workers with the builds' sandbox and limits (time, memory, answer
   * size, how many at once), answer room and wait before another worker starts; the first render
   * starts the first chart worker, so that builders that render no chart run none.
   */
  public synchronized ChartRenderer charts() {
    if (charts == null) {
      charts =
          new ChartRenderer(
              new ChartWorkerSettings(
                  sandbox.root(),
                  sandbox.workerCache(),
                  sandbox.landlock(),
                  sandbox.confinement() == BuildSandbox.Confinement.ALLOWED_UNCONFINED,
                  limits.maxMemoryBytes(),
                  limits.timeout(),
                  limits.maxOutputBytes(),
                  limits.chartWorkers(),
                  growAfter,
                  workers.room()));
    }
    return charts;
  }

  @Override
  public void close() {
    workers.close();
    synchronized (this) {
      if (charts != null) {
        charts.close();
      }
    }
  }
}
