package dev.capstan.source.helm.bench;

import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.helm.ChartLookup;
import dev.capstan.source.helm.ChartVersion;
import dev.capstan.source.helm.HelmIndexRequest;
import dev.capstan.source.helm.HelmIndexSource;
import dev.capstan.source.helm.IndexLimits;
import dev.capstan.source.helm.IndexServer;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;

/**
 * A large index (about 30 MB, written as real repositories write theirs: descriptions, maintainers,
 * annotations) downloaded from a server on loopback and searched, with the heap it grows by; then
 * the refresh of the unchanged index, timed. Usage: {@code IndexBenchmark [MB] [refreshes]}.
 */
public final class IndexBenchmark {
  private static final String KEY = "helmrepository/bench/large";

  private IndexBenchmark() {}

  public static void main(String[] args) throws Exception {
    int megabytes = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    int refreshes = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    Path storage = Files.createTempDirectory("helm-bench");
    Path index = storage.resolve("served-index.yaml");
    write(index, megabytes * 1024L * 1024);
    try (IndexServer server = IndexServer.http().serve(index)) {
      HelmIndexSource source =
          new HelmIndexSource(
              new ArtifactStore(storage, Clock.systemUTC()),
              Clock.systemUTC(),
              IndexLimits.DEFAULTS);
      ChartLookup lookup = new ChartLookup(IndexLimits.DEFAULTS);
      HelmIndexRequest request = HelmIndexRequest.of(KEY, server.url());
      long baseline = settledHeap();
      resetPeaks();
      long started = System.nanoTime();
      FetchResult first = source.fetch(request);
      if (!(first instanceof FetchResult.Fetched fetched)) {
        throw new IllegalStateException("first fetch: " + first);
      }
      StoredArtifact artifact = fetched.current();
      double fetchMs = (System.nanoTime() - started) / 1e6;
      started = System.nanoTime();
      ChartVersion found = lookup.find(artifact, "chart-0777", "^3.0.0").orElseThrow();
      double lookupMs = (System.nanoTime() - started) / 1e6;
      long peak = peakHeap();
      System.out.printf(
          "index %.1f MB (%d bytes), stored %d bytes%n",
          Files.size(index) / 1048576.0,
          Files.size(index),
          Files.size(HelmIndexSource.indexFile(artifact)));
      System.out.printf(
          "first fetch %.0f ms, lookup %.0f ms (found %s %s)%n",
          fetchMs, lookupMs, found.name(), found.version());
      System.out.printf(
          "heap growth during fetch and lookup: peak %.1f MiB over the settled %.1f MiB%n",
          (peak - baseline) / 1048576.0, baseline / 1048576.0);
      double[] times = new double[refreshes];
      for (int i = 0; i < refreshes; i++) {
        long t = System.nanoTime();
        FetchResult again = source.fetch(request);
        times[i] = (System.nanoTime() - t) / 1e6;
        if (!(again instanceof FetchResult.Unchanged)) {
          throw new IllegalStateException("refresh: " + again);
        }
      }
      Arrays.sort(times);
      Thread.sleep(200); // the server notes a request after answering it
      long notModified = server.seen().stream().filter(s -> s.status() == 304).count();
      System.out.printf(
          "unchanged refresh: median %.2f ms, p90 %.2f ms, max %.2f ms; %d requests for %d"
              + " refreshes, %d answered 304%n",
          times[refreshes / 2],
          times[refreshes * 9 / 10],
          times[refreshes - 1],
          server.seen().size() - 1,
          refreshes,
          notModified);
    } finally {
      ArtifactStore.deleteTree(storage);
    }
  }

  /**
   * Writes an index of about {@code bytes} to {@code file}: 1,000 charts of many versions, each as
   * Helm writes it.
   */
  private static void write(Path file, long bytes) throws IOException {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write("apiVersion: v1\nentries:\n");
      int versions = (int) (bytes / 1000 / 1000) + 1;
      for (int chart = 0; chart < 1000; chart++) {
        String name = String.format("chart-%04d", chart);
        out.write("  " + name + ":\n");
        for (int v = 0; v < versions; v++) {
          out.write(version(name, v / 10 + 1, v % 10));
        }
      }
      out.write("generated: \"2026-01-01T00:00:00Z\"\n");
    }
  }

  private static String version(String name, int minor, int patch) {
    String version = "3." + minor + "." + patch;
    return """
      - annotations:
          artifacthub.io/changes: |
            - kind: changed
              description: Bump the application image to a newer release
          artifacthub.io/license: Apache-2.0
        apiVersion: v2
        appVersion: %2$s
        created: "2025-11-01T10:00:00.000000000Z"
        dependencies:
        - name: common
          repository: oci://registry.example.com/charts
          version: 2.x.x
        description: A Helm chart for Kubernetes that installs %1$s with its defaults
        digest: 5b0c6a0e7f4c3e1d2b9a8f7e6d5c4b3a291807f6e5d4c3b2a19080706050403a
        home: https://charts.example.com/%1$s
        icon: https://charts.example.com/%1$s/logo.svg
        keywords: [%1$s, kubernetes, example]
        maintainers:
        - email: maintainers@example.com
          name: Example Maintainers
        name: %1$s
        sources: [https://github.com/example/%1$s]
        urls:
        - https://charts.example.com/%1$s-%2$s.tgz
        version: %2$s
    """
        .formatted(name, version);
  }

  private static long settledHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return heapPools().stream().mapToLong(p -> p.getUsage().getUsed()).sum();
  }

  private static void resetPeaks() {
    heapPools().forEach(MemoryPoolMXBean::resetPeakUsage);
  }

  /** The sum of the heap pools' peaks since the reset: an upper bound of the heap used at once. */
  private static long peakHeap() {
    return heapPools().stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
  }

  private static List<MemoryPoolMXBean> heapPools() {
    return ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP)
        .toList();
  }
}
