package dev.capstan.cli.faults;

import java.time.Duration;
import java.util.List;

/**
 * SIGKILL of the engine's kustomize build workers (the processes below the engine whose command is
 * {@code capstan-kustomize-worker}), again and again for a while, so that kills land in the middle
 * of builds: the engine must see its workers gone, start new ones and converge.
 */
final class BuildWorkerKills {
  static final String WORKER = "capstan-kustomize-worker";
  private static final Duration EVERY = Duration.ofMillis(100);

  private BuildWorkerKills() {}

  /** The build workers running below {@code enginePid} now. */
  static List<ProcessHandle> workersOf(long enginePid) {
    return ProcessHandle.of(enginePid).stream()
        .flatMap(ProcessHandle::descendants)
        .filter(p -> p.info().command().map(c -> c.endsWith("/" + WORKER)).orElse(false))
        .toList();
  }

  /**
   * Kills every build worker of {@code enginePid} each 100 ms for {@code duration}; returns how
   * many were killed (a new engine's workers are started on its first build, so a kill finds none
   * until then).
   */
  static int killFor(long enginePid, Duration duration) throws InterruptedException {
    long end = System.nanoTime() + duration.toNanos();
    int killed = 0;
    while (System.nanoTime() < end) {
      for (ProcessHandle worker : workersOf(enginePid)) {
        // destroyForcibly is SIGKILL on Linux: no chance to answer or clean up.
        if (worker.destroyForcibly()) {
          killed++;
        }
      }
      Thread.sleep(EVERY.toMillis());
    }
    return killed;
  }
}
