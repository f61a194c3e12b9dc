package dev.capstan.kustomize.chart;

import dev.capstan.kustomize.worker.AnswerRoom;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How chart workers run: the build workers' sandbox and limits (the applier's {@code
 * ManifestBuilder.charts()} takes them from its own).
 *
 * @param root the directory whose tree the workers may read; every chart rendered lies in it
 * @param workerCache where the chart worker's executable is unpacked
 * @param landlock whether workers enter Landlock (false only for tests: as on a kernel without it)
 * @param allowUnconfined whether a worker the kernel cannot confine may render
 * @param memoryLimitBytes the memory one worker process may use; past it, it ends
 * @param timeout the time one render may take; past it, its worker is stopped
 * @param maxAnswerBytes the largest answer read from a worker
 * @param workers how many renders run at once, each in a worker of its own
 * @param growAfter how long a render waits for a busy worker before another worker is started for
 *     it (a chart worker holds about twice a build worker's memory, and most renders take
 *     milliseconds); zero: at once
 * @param room heap room for answers, shared with the build workers
 */
@RecordBuilder
public record ChartWorkerSettings(
    Path root,
    Path workerCache,
    boolean landlock,
    boolean allowUnconfined,
    long memoryLimitBytes,
    Duration timeout,
    long maxAnswerBytes,
    int workers,
    Duration growAfter,
    AnswerRoom room)
    implements ChartWorkerSettingsBuilder.With {

  public ChartWorkerSettings {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(workerCache, "workerCache");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(growAfter, "growAfter");
    Objects.requireNonNull(room, "room");
    if (workers < 1) {
      throw new IllegalArgumentException("at least one chart worker is needed");
    }
  }
}
