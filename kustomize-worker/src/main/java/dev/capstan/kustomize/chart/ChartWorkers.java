package dev.capstan.kustomize.chart;

import dev.capstan.kustomize.chart.ChartRenderException.Stage;
import dev.capstan.kustomize.worker.Hello;
import dev.capstan.kustomize.worker.KustomizeWorker;
import dev.capstan.kustomize.worker.WorkerBinary;
import dev.capstan.kustomize.worker.WorkerException;
import dev.capstan.kustomize.worker.WorkerKind;
import dev.capstan.kustomize.worker.WorkerPool;

/**
 * The chart workers: up to {@link ChartWorkerSettings#workers()} processes, none before the first
 * render (a chart worker holds Helm's and client-go's packages, about twice a build worker's
 * memory), each kept for the next render; another starts only when a render has waited {@link
 * ChartWorkerSettings#growAfter()} for a busy one. A render past its time or memory ends with its
 * worker; the next render gets a new one.
 */
final class ChartWorkers implements AutoCloseable {
  private final ChartWorkerSettings settings;
  private final WorkerPool pool;

  ChartWorkers(ChartWorkerSettings settings) {
    this.settings = settings;
    this.pool =
        new WorkerPool(
            new WorkerPool.Spec(
                "capstan-chart-deadlines",
                settings.workers(),
                settings.growAfter(),
                () -> WorkerBinary.forThisMachine(settings.workerCache(), WorkerKind.CHART),
                settings.root(),
                settings.memoryLimitBytes(),
                settings.landlock(),
                this::check));
  }

  /**
   * Runs one request on a worker, its questions (lookups) answered by {@code questions} (null: it
   * asks none); the answer holds room of the settings' room until given.
   */
  byte[] call(byte[] request, KustomizeWorker.Questions questions) {
    try {
      return pool.call(
          request, settings.timeout(), settings.maxAnswerBytes(), settings.room(), questions);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChartRenderException(Stage.WORKER, "interrupted while waiting for a chart worker");
    } catch (WorkerException e) {
      throw failure(e);
    }
  }

  /** Refuses a worker that does not render charts or is not confined as the settings require. */
  private void check(Hello hello) {
    if (!hello.charts()) {
      throw new ChartRenderException(
          Stage.WORKER, "the chart worker started does not render charts");
    }
    if (!hello.confined() && !settings.allowUnconfined()) {
      throw new ChartRenderException(
          Stage.SANDBOX,
          "charts are rendered only in the kernel's sandbox (Landlock and seccomp), which this"
              + " machine cannot give: "
              + hello.problem());
    }
  }

  private ChartRenderException failure(WorkerException e) {
    return switch (e.cause()) {
      case TIMED_OUT ->
          new ChartRenderException(
              Stage.LIMIT,
              "the chart's render did not finish within "
                  + settings.timeout().toSeconds()
                  + "s and was stopped");
      case OUT_OF_MEMORY ->
          new ChartRenderException(
              Stage.LIMIT,
              "the chart's render needed more than "
                  + (settings.memoryLimitBytes() >> 20)
                  + " MiB of memory and was stopped");
      case ANSWER_TOO_LARGE, NO_ROOM -> new ChartRenderException(Stage.LIMIT, e.getMessage());
      case UNAVAILABLE, START_FAILED, CRASHED ->
          new ChartRenderException(Stage.WORKER, e.getMessage());
    };
  }

  /** How many workers were started and can still render (for tests). */
  long running() {
    return pool.running();
  }

  @Override
  public void close() {
    pool.close();
  }
}
