import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildOptions;
import dev.capstan.applier.kustomize.BuildResult;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * Warm builds as the engine runs them: one ManifestBuilder with one worker, and a changed
 * commonMetadata label on every build so that no answer comes from the result cache. Prints the
 * time of the first build (which starts the worker) and, after WARMUP builds, the median and 90th
 * percentile of the next COUNT, and how much metaspace the build took in the JVM (the pool before
 * the first build and after the last).
 *
 * <p>Usage (see build-vs-kustomize): java -cp CLASSPATH BuildBench.java ROOT PATH WARMUP COUNT
 */
public final class BuildBench {
  public static void main(String[] args) {
    Path root = Path.of(args[0]);
    String path = args[1];
    int warmup = Integer.parseInt(args[2]);
    int count = Integer.parseInt(args[3]);
    long[] times = new long[count];
    long metaspaceBefore = poolUsed("Metaspace");
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.engine(1), BuildSandbox.forUser(root))) {
      for (int i = -warmup - 1; i < count; i++) {
        BuildOptions options = BuildOptions.none().withCommonMetadata(Map.of("run", "r" + i), null);
        long start = System.nanoTime();
        BuildResult result = builder.build(root, "sha256:bench", path, options);
        long took = System.nanoTime() - start;
        if (!(result instanceof BuildResult.Built built)) {
          throw new IllegalStateException(result.toString());
        }
        if (i == -warmup - 1) {
          System.out.printf(
              "first build (%d objects): %d ms%n", built.objects().size(), took / 1_000_000);
        } else if (i >= 0) {
          times[i] = took;
        }
      }
    }
    Arrays.sort(times);
    System.out.printf(
        "warm build, after %d builds: p50 %.1f ms, p90 %.1f ms (%d builds)%n",
        warmup, times[count / 2] / 1e6, times[count * 9 / 10] / 1e6, count);
    System.out.printf(
        "metaspace %.1f MiB more than before the first build%n",
        (poolUsed("Metaspace") - metaspaceBefore) / 1048576.0);
  }

  /** Bytes used by the JVM's memory pools whose name starts with the prefix. */
  private static long poolUsed(String prefix) {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getName().startsWith(prefix)) {
        used += pool.getUsage().getUsed();
      }
    }
    return used;
  }
}
