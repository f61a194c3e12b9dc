package dev.capstan.health.bench;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Launches the JMH benchmark from the test classpath; used by {@code health/bench/run-jmh}. Its
 * name keeps it out of normal test runs, and it does nothing unless {@code capstan.bench} is set.
 */
class HealthBenchmarkRun {
  @Test
  void run() throws RunnerException {
    assumeTrue(Boolean.getBoolean("capstan.bench"), "benchmarks run only from bench/run-jmh");
    Options options =
        new OptionsBuilder()
            .include(
                HealthBenchmark.class.getName() + System.getProperty("capstan.bench.include", ""))
            .forks(Integer.getInteger("capstan.bench.forks", 1))
            .warmupIterations(Integer.getInteger("capstan.bench.warmups", 5))
            .warmupTime(TimeValue.seconds(2))
            .measurementIterations(Integer.getInteger("capstan.bench.iterations", 3))
            .measurementTime(TimeValue.seconds(2))
            .threads(1)
            .jvmArgsAppend("-Xmx1g")
            .addProfiler(WorkerCpuProfiler.class)
            .build();
    new Runner(options).run();
  }
}
