package dev.capstan.health.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Reports, next to JMH's wall-clock throughput, the operations per second of CPU time used by the
 * benchmark's worker thread. On a shared build machine the wall-clock figure mostly measures how
 * much of a core the benchmark got; this one measures what an operation costs on one core, so runs
 * at different machine loads can be compared.
 */
public final class WorkerCpuProfiler implements InternalProfiler {
  private static final String WORKER = "jmh-worker";

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private Map<Long, Long> startCpu = Map.of();

  @Override
  public String getDescription() {
    return "operations per CPU-second of the benchmark worker thread";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    startCpu = workerCpuNanos();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    long cpu = 0;
    for (Map.Entry<Long, Long> worker : workerCpuNanos().entrySet()) {
      cpu += worker.getValue() - startCpu.getOrDefault(worker.getKey(), 0L);
    }
    long ops = result.getMetadata() == null ? 0 : result.getMetadata().getMeasuredOps();
    if (cpu <= 0 || ops <= 0) {
      return List.of();
    }
    return List.of(new ScalarResult("cpu", ops * 1e9 / cpu, "ops/cpu-s", AggregationPolicy.AVG));
  }

  private Map<Long, Long> workerCpuNanos() {
    Map<Long, Long> cpu = new HashMap<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().contains(WORKER)) {
        long nanos = threads.getThreadCpuTime(thread.getId());
        if (nanos >= 0) {
          cpu.put(thread.getId(), nanos);
        }
      }
    }
    return cpu;
  }
}
