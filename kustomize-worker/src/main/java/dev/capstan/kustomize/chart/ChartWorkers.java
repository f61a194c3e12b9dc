package dev.capstan.kustomize.chart;

import dev.capstan.kustomize.chart.ChartRenderException.Stage;
import dev.capstan.kustomize.worker.Hello;
import dev.capstan.kustomize.worker.KustomizeWorker;
import dev.capstan.kustomize.worker.WorkerBinary;
import dev.capstan.kustomize.worker.WorkerException;
import dev.capstan.kustomize.worker.WorkerKind;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;

/**
 * The chart workers: up to {@link ChartWorkerSettings#workers()} processes, none before the first
 * render (a chart worker holds Helm's and client-go's packages, about twice a build worker's
 * memory), each kept for the next render. A render past its time or memory ends with its worker;
 * the next render gets a new one.
 */
final class ChartWorkers implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final ChartWorkerSettings settings;
  private final Semaphore slots;
  private final LinkedBlockingQueue<KustomizeWorker> idle = new LinkedBlockingQueue<>();
  private final Set<KustomizeWorker> all = ConcurrentHashMap.newKeySet();
  // its thread starts with the first deadline, so an unused pool runs none
  private final ScheduledExecutorService timer;
  private WorkerBinary binary;

  ChartWorkers(ChartWorkerSettings settings) {
    this.settings = settings;
    this.slots = new Semaphore(settings.workers(), true);
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "capstan-chart-deadlines");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Runs one request on a worker; the answer holds room of the settings' room until given. */
  byte[] call(byte[] request) {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChartRenderException(Stage.WORKER, "interrupted while waiting for a chart worker");
    }
    try {
      KustomizeWorker worker = take();
      byte[] answer =
          worker.call(request, settings.timeout(), settings.maxAnswerBytes(), settings.room());
      idle.offer(worker);
      return answer;
    } catch (WorkerException e) {
      throw failure(e);
    } finally {
      slots.release();
    }
  }

  /** An idle worker that can still render, else a new one. */
  private KustomizeWorker take() {
    for (KustomizeWorker worker = idle.poll(); worker != null; worker = idle.poll()) {
      if (worker.usable()) {
        return worker;
      }
    }
    return start();
  }

  private KustomizeWorker start() {
    KustomizeWorker worker =
        KustomizeWorker.start(
            new KustomizeWorker.Settings(
                binary(), settings.root(), settings.memoryLimitBytes(), settings.landlock(), false),
            timer,
            START_TIMEOUT);
    all.add(worker);
    all.removeIf(w -> !w.usable());
    return checked(worker);
  }

  private synchronized WorkerBinary binary() {
    if (binary == null) {
      binary = WorkerBinary.forThisMachine(settings.workerCache(), WorkerKind.CHART);
    }
    return binary;
  }

  /** The worker, if it renders charts and is confined as the settings require; else stopped. */
  private KustomizeWorker checked(KustomizeWorker worker) {
    Hello hello = worker.hello();
    if (!hello.charts()) {
      worker.close();
      throw new ChartRenderException(
          Stage.WORKER, "the chart worker started does not render charts");
    }
    if (!hello.confined() && !settings.allowUnconfined()) {
      worker.close();
      throw new ChartRenderException(
          Stage.SANDBOX,
          "charts are rendered only in the kernel's sandbox (Landlock and seccomp), which this"
              + " machine cannot give: "
              + hello.problem());
    }
    return worker;
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
    return all.stream().filter(KustomizeWorker::usable).count();
  }

  @Override
  public void close() {
    timer.shutdownNow();
    idle.clear();
    all.forEach(KustomizeWorker::close);
    all.clear();
  }
}
