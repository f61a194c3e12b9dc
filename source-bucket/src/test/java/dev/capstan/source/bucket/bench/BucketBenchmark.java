package dev.capstan.source.bucket.bench;

import dev.capstan.source.bucket.BucketLimits;
import dev.capstan.source.bucket.BucketRequest;
import dev.capstan.source.bucket.BucketSource;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.testing.OciRegistry;
import dev.capstan.testing.S3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A bucket of generated manifests on the S3 test server (loopback): the first fetch into a fresh
 * store timed against the AWS SDK for Go's S3 client listing and downloading the same objects with
 * the same concurrency, then the unchanged re-check (one listing, nothing downloaded) timed. Args:
 * objects (1000), rounds of each first fetch (7), re-checks (200).
 */
public final class BucketBenchmark {
  private BucketBenchmark() {}

  public static void main(String[] args) throws Exception {
    int objects = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    int checks = args.length > 2 ? Integer.parseInt(args[2]) : 200;
    Path dir = Files.createTempDirectory("bucket-bench");
    try (S3Server s3 = S3Server.start(dir.resolve("server"), false)) {
      s3.createBucket("bench");
      long bytes = 0;
      for (int i = 0; i < objects; i++) {
        String manifest = manifest(i);
        bytes += manifest.length();
        s3.putObject("bench", "apps/app-" + (i % 20) + "/cm-" + i + ".yaml", manifest);
      }
      System.out.printf("bucket: %d objects, %d bytes%n", objects, bytes);
      List<Long> ours = new ArrayList<>();
      List<Long> go = new ArrayList<>();
      Path fetch = OciRegistry.tool("s3-fetch");
      BucketSource source = null;
      for (int round = 0; round < rounds; round++) {
        ArtifactStore store = new ArtifactStore(dir.resolve("store-" + round), Clock.systemUTC());
        source = new BucketSource(store, Clock.systemUTC(), BucketLimits.DEFAULTS);
        long start = System.nanoTime();
        FetchResult result = source.fetch(request(s3));
        ours.add((System.nanoTime() - start) / 1_000_000);
        if (!(result instanceof FetchResult.Fetched)) {
          throw new IllegalStateException("the first fetch did not store: " + result);
        }
        go.add(goFetch(fetch, s3, dir.resolve("go-" + round)));
      }
      System.out.printf(
          "first fetch, ours: first (cold JVM) %d ms, median %d ms of %s%n",
          ours.get(0), median(ours), ours);
      System.out.printf("first fetch, AWS SDK for Go: median %d ms of %s%n", median(go), go);
      List<Double> rechecks = new ArrayList<>();
      for (int i = 0; i < checks; i++) {
        long start = System.nanoTime();
        FetchResult result = source.fetch(request(s3));
        rechecks.add((System.nanoTime() - start) / 1e6);
        if (!(result instanceof FetchResult.Unchanged)) {
          throw new IllegalStateException("an unchanged bucket fetched: " + result);
        }
      }
      Collections.sort(rechecks);
      System.out.printf(
          "unchanged re-check: median %.1f ms, p90 %.1f ms, max %.1f ms (%d checks)%n",
          rechecks.get(checks / 2),
          rechecks.get(checks * 9 / 10),
          rechecks.get(checks - 1),
          checks);
    } finally {
      ArtifactStore.deleteQuietly(dir);
    }
  }

  private static BucketRequest request(S3Server s3) {
    return BucketRequest.of("bucket/bench/bench", s3.endpoint(), "bench")
        .withInsecure(true)
        .withCredentials(
            Map.of(
                "accesskey", S3Server.ACCESS_KEY.getBytes(StandardCharsets.UTF_8),
                "secretkey", S3Server.SECRET_KEY.getBytes(StandardCharsets.UTF_8)));
  }

  /** The Go client's own figure: the time from its first listing to its last byte written. */
  private static long goFetch(Path fetch, S3Server s3, Path into) throws Exception {
    Process process =
        new ProcessBuilder(
                fetch.toString(),
                "-endpoint",
                s3.url(),
                "-bucket",
                "bench",
                "-dir",
                into.toString(),
                "-access-key",
                S3Server.ACCESS_KEY,
                "-secret-key",
                S3Server.SECRET_KEY,
                "-concurrency",
                Integer.toString(BucketLimits.DEFAULTS.concurrency()))
            .redirectErrorStream(true)
            .start();
    String out =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (process.waitFor() != 0 || !out.endsWith(" ms")) {
      throw new IllegalStateException("s3-fetch failed: " + out);
    }
    String[] words = out.split("\\s+");
    return Long.parseLong(words[words.length - 2]);
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static String manifest(int i) {
    StringBuilder data = new StringBuilder();
    for (int k = 0; k < 20; k++) {
      data.append("  key-")
          .append(k)
          .append(": value-")
          .append(i)
          .append('-')
          .append(k)
          .append('\n');
    }
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-" + i + "\ndata:\n" + data;
  }
}
