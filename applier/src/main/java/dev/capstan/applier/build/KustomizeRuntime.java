package dev.capstan.applier.build;

import com.dylibso.chicory.runtime.ChicoryInterruptedException;
import com.dylibso.chicory.wasi.WasiExitException;
import dev.capstan.kustomize.wasm.KustomizeInstance;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kustomize module running in this JVM: warm instances, each serving one build at a time on a
 * thread of its own (with a deep stack, for deeply nested input), within the build limits. A build
 * that runs too long is interrupted; one that needs too much memory or nests too deeply fails; in
 * every such case its instance is thrown away, so hostile input never wedges a worker or leaves a
 * broken instance behind.
 */
final class KustomizeRuntime implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KustomizeRuntime.class);

  /** Deep enough for any kustomization a person writes; deeper input fails with a clear error. */
  private static final long WORKER_STACK_BYTES = 64L * 1024 * 1024;

  private static final int LOG_LIMIT = 16 * 1024;

  private final BuildLimits limits;
  private final Semaphore slots;
  private final ConcurrentLinkedQueue<KustomizeInstance> idle = new ConcurrentLinkedQueue<>();
  private final ExecutorService workers;
  private final FileSystem empty;

  KustomizeRuntime(BuildLimits limits) {
    this.limits = limits;
    this.slots = new Semaphore(limits.instances(), true);
    this.workers = Executors.newFixedThreadPool(limits.instances(), workerThreads());
    this.empty = ArtifactSnapshot.newFileSystem();
    try {
      Files.createDirectories(empty.getPath(ArtifactSnapshot.ROOT));
    } catch (IOException e) {
      throw new IllegalStateException("cannot create an in-memory directory", e);
    }
  }

  /** Starts one instance in the background, so that the first build finds it warm. */
  void warmUp() {
    workers.submit(
        () -> {
          try {
            idle.offer(start(new Output()));
          } catch (RuntimeException | StackOverflowError e) {
            LOG.warn("the kustomize module could not be started: {}", e.toString());
          }
        });
  }

  /** Runs one build request on the snapshot; returns the module's response. */
  byte[] call(byte[] request, ArtifactSnapshot snapshot) {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BuildException(
          BuildErrorKind.INTERNAL, "interrupted while waiting for a build instance");
    }
    Output log = new Output();
    CompletableFuture<byte[]> response = new CompletableFuture<>();
    Future<?> run = workers.submit(() -> runOnInstance(request, snapshot, log, response));
    try {
      return response.get(limits.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      run.cancel(true);
      throw new BuildException(
          BuildErrorKind.LIMIT_EXCEEDED,
          "the build did not finish within " + limits.timeout().toSeconds() + "s and was stopped");
    } catch (InterruptedException e) {
      run.cancel(true);
      Thread.currentThread().interrupt();
      throw new BuildException(BuildErrorKind.INTERNAL, "interrupted while building");
    } catch (ExecutionException e) {
      throw failure(e.getCause(), log, snapshot.holdsDecrypted());
    } finally {
      slots.release();
    }
  }

  /**
   * Builds on an idle instance (or a new one), completes {@code response}, then readies the
   * instance for the next build while the caller goes on. An instance that threw, or grew past what
   * is retained, is dropped.
   */
  private void runOnInstance(
      byte[] request, ArtifactSnapshot snapshot, Output log, CompletableFuture<byte[]> response) {
    try {
      KustomizeInstance instance = idle.poll();
      if (instance == null) {
        instance = start(log);
      }
      response.complete(instance.call(request, snapshot.root(), log));
      if (instance.memoryBytes() <= limits.retainMemoryBytes()) {
        instance.collect();
        idle.offer(instance);
      }
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      response.completeExceptionally(e);
    }
  }

  private KustomizeInstance start(Output log) {
    return KustomizeInstance.start(
        limits.maxMemoryBytes(), empty.getPath(ArtifactSnapshot.ROOT), log);
  }

  private BuildException failure(Throwable cause, Output log, boolean readDecrypted) {
    if (cause instanceof BuildException known) {
      return known;
    }
    if (cause instanceof ChicoryInterruptedException) {
      return new BuildException(
          BuildErrorKind.LIMIT_EXCEEDED,
          "the build did not finish within " + limits.timeout().toSeconds() + "s and was stopped");
    }
    if (cause instanceof StackOverflowError) {
      return new BuildException(
          BuildErrorKind.LIMIT_EXCEEDED,
          "the build nested too deeply (a kustomization or YAML document too deep) and was"
              + " stopped");
    }
    String output = log.text();
    if (output.contains("out of memory")) {
      return new BuildException(
          BuildErrorKind.LIMIT_EXCEEDED,
          "the build needed more than "
              + (limits.maxMemoryBytes() >> 20)
              + " MiB of memory and was stopped");
    }
    String what =
        cause instanceof WasiExitException exit
            ? "the build module exited (status " + exit.exitCode() + ")"
            : "the build module failed (" + cause.getClass().getSimpleName() + ")";
    // The module's own output may quote the input: it goes to the debug log only, and not at all
    // when the input holds decrypted files.
    if (readDecrypted) {
      LOG.debug("{}; its output is not logged: the build read decrypted inputs", what);
    } else {
      LOG.debug("{}; its output: {}", what, output);
    }
    return new BuildException(BuildErrorKind.INTERNAL, what);
  }

  @Override
  public void close() {
    workers.shutdownNow();
    idle.clear();
    try {
      empty.close();
    } catch (IOException ignored) {
      // in memory
    }
  }

  private static ThreadFactory workerThreads() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread =
          new Thread(
              null, runnable, "capstan-build-" + count.incrementAndGet(), WORKER_STACK_BYTES);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** The module's stdout and stderr, kept up to a limit. */
  private static final class Output extends OutputStream {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      if (bytes.size() < LOG_LIMIT) {
        bytes.write(b);
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      bytes.write(b, off, Math.max(0, Math.min(len, LOG_LIMIT - bytes.size())));
    }

    synchronized String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }
}
