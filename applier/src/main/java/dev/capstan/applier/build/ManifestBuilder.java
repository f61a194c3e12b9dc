package dev.capstan.applier.build;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The build stage: Flux's build of a path of an artifact, run by kustomize's own code (the
 * kustomize-wasm module, compiled to JVM bytecode). A directory without a kustomization gets the
 * one Flux generates (every manifest below it); the Kustomization's own fields are merged into it
 * as Flux merges them; then postBuild substitution and commonMetadata. The build reads only the
 * artifact's files, from an in-memory copy, and runs within {@link BuildLimits}.
 *
 * <p>Thread-safe; {@link #close()} stops its instances.
 */
public final class ManifestBuilder implements AutoCloseable {
  private final ObjectMapper mapper = new ObjectMapper();
  private final KustomizeRuntime runtime;
  private final ArtifactSnapshots snapshots;
  private final ResultCache results;

  public ManifestBuilder(BuildLimits limits) {
    this.runtime = new KustomizeRuntime(limits);
    this.snapshots = new ArtifactSnapshots(limits.maxArtifactBytes(), limits.snapshotCacheBytes());
    this.results = new ResultCache(limits.resultCacheBytes());
  }

  /** Starts an instance in the background, so that the first build does not wait for it. */
  public ManifestBuilder warmedUp() {
    runtime.warmUp();
    return this;
  }

  /**
   * Builds {@code path} (relative to {@code root}) of an artifact that never changes under its
   * {@code digest}: the artifact's copy and the answers for unchanged inputs are kept.
   */
  public BuildResult build(Path root, String digest, String path, BuildOptions options) {
    return run(root, Optional.of(digest), path, KustomizeRequest.Output.OBJECTS, options);
  }

  /**
   * As {@link #build(Path, String, String, BuildOptions)}, with some files of the artifact seen by
   * this build only with other content (paths relative to {@code root}): the decrypted inputs of a
   * Kustomization's secretGenerators. They live in this build's own in-memory copy and are never
   * written to disk; neither the copy nor the result is kept.
   */
  public BuildResult build(
      Path root,
      String digest,
      String path,
      BuildOptions options,
      Map<String, byte[]> replacedFiles) {
    if (replacedFiles.isEmpty()) {
      return build(root, digest, path, options);
    }
    try {
      if (!Files.isDirectory(root)) {
        return new BuildResult.Failed(
            new BuildError(BuildErrorKind.ARTIFACT, "the artifact is not in local storage"));
      }
      byte[] request =
          KustomizeRequest.of(path, KustomizeRequest.Output.OBJECTS, options).toJson(mapper);
      ArtifactSnapshot shared = snapshots.lease(root, digest);
      ArtifactSnapshot own;
      try {
        own = shared.withReplaced(replacedFiles);
      } finally {
        shared.release();
      }
      try {
        return KustomizeResponse.parse(runtime.call(request, own), mapper)
            .toResult(KustomizeRequest.Output.OBJECTS);
      } finally {
        own.release();
      }
    } catch (BuildException e) {
      return new BuildResult.Failed(e.error());
    }
  }

  /** Builds {@code path} of a directory that may change between builds; nothing is kept. */
  public BuildResult build(Path root, String path, BuildOptions options) {
    return run(root, Optional.empty(), path, KustomizeRequest.Output.OBJECTS, options);
  }

  /**
   * As {@link #build(Path, String, BuildOptions)}, as kustomize prints it: {@link
   * BuildResult.Printed}.
   */
  public BuildResult print(Path root, String path, BuildOptions options) {
    return run(root, Optional.empty(), path, KustomizeRequest.Output.YAML, options);
  }

  private BuildResult run(
      Path root,
      Optional<String> digest,
      String path,
      KustomizeRequest.Output output,
      BuildOptions options) {
    try {
      if (!Files.isDirectory(root)) {
        return new BuildResult.Failed(
            new BuildError(BuildErrorKind.ARTIFACT, "the artifact is not in local storage"));
      }
      byte[] request = KustomizeRequest.of(path, output, options).toJson(mapper);
      Optional<ByteBuffer> key =
          digest.map(d -> ResultCache.key(d, root.toAbsolutePath().toString(), request));
      Optional<byte[]> known = key.flatMap(results::get);
      byte[] answer =
          known.isPresent() ? known.get() : callModule(root, digest.orElse(null), request);
      if (known.isEmpty()) {
        key.ifPresent(k -> results.put(k, answer));
      }
      return KustomizeResponse.parse(answer, mapper).toResult(output);
    } catch (BuildException e) {
      return new BuildResult.Failed(e.error());
    }
  }

  private byte[] callModule(Path root, String digest, byte[] request) {
    ArtifactSnapshot snapshot = snapshots.lease(root, digest);
    try {
      return runtime.call(request, snapshot);
    } finally {
      snapshot.release();
    }
  }

  @Override
  public void close() {
    runtime.close();
    snapshots.clear();
  }
}
