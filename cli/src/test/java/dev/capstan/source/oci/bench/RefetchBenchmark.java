package dev.capstan.source.oci.bench;

import dev.capstan.cli.push.PushCommand;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.oci.OciFetchRequest;
import dev.capstan.source.oci.OciRef;
import dev.capstan.source.oci.OciSource;
import dev.capstan.source.oci.OciSourceOptions;
import dev.capstan.testing.OciRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * The OCI source against the Distribution registry on loopback: an artifact of generated manifests
 * pushed by {@code capstan push artifact}, its first pull into a new store, and the re-fetch of the
 * unchanged tag, which must cost one manifest request and no blob.
 *
 * <p>Usage: {@code RefetchBenchmark [files] [runs]}. Prints a Markdown table and the registry's
 * requests per re-fetch; exits non-zero when a re-fetch sent anything but one manifest request.
 */
public final class RefetchBenchmark {
  private static final String TAG = "v1";

  private final Path work;
  private final OciRegistry registry;
  private int stores;

  private RefetchBenchmark(Path work, OciRegistry registry) {
    this.work = work;
    this.registry = registry;
  }

  public static void main(String[] args) throws Exception {
    int files = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    Path work = Files.createTempDirectory("capstan-oci-bench");
    try (OciRegistry registry =
        OciRegistry.start(work.resolve("registry"), OciRegistry.Options.plain())) {
      RefetchBenchmark bench = new RefetchBenchmark(work, registry);
      long bytes = bench.generate(files);
      bench.push();
      System.out.printf(Locale.ROOT, "artifact: %d files, %d KiB unpacked%n", files, bytes / 1024);
      System.exit(bench.measure(runs) ? 0 : 1);
    } finally {
      delete(work);
    }
  }

  private boolean measure(int runs) throws Exception {
    OciFetchRequest request =
        OciFetchRequest.of("ocirepository/bench/app", registry.url("bench/app"), OciRef.tag(TAG))
            .withInsecure(true);
    // One untimed round first, so the JVM's first-use costs are not counted as fetch time.
    expect(FetchResult.Fetched.class, newSource().fetch(request));
    List<Double> first = new ArrayList<>();
    for (int i = 0; i < Math.max(5, runs / 10); i++) {
      OciSource source = newSource();
      first.add(time(() -> expect(FetchResult.Fetched.class, source.fetch(request))));
    }
    OciSource source = newSource();
    expect(FetchResult.Fetched.class, source.fetch(request));
    for (int i = 0; i < 20; i++) {
      expect(FetchResult.Unchanged.class, source.fetch(request)); // warm-up, untimed
    }
    int before = registry.requests().size();
    List<Double> refetch = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      refetch.add(time(() -> expect(FetchResult.Unchanged.class, source.fetch(request))));
    }
    List<String> sent = registry.requests().subList(before, registry.requests().size());
    System.out.println();
    System.out.println("| measurement | median | p90 | min | max |");
    System.out.println("|---|---|---|---|---|");
    System.out.println(row("first pull into a new store", first));
    System.out.println(row("re-fetch of the unchanged tag", refetch));
    return checkRequests(sent, runs);
  }

  /** Every re-fetch must have been exactly one manifest request and no blob download. */
  private static boolean checkRequests(List<String> sent, int runs) {
    String manifest = "HEAD /v2/bench/app/manifests/" + TAG;
    long manifests = sent.stream().filter(manifest::equals).count();
    long blobs = sent.stream().filter(r -> r.contains("/blobs/")).count();
    System.out.printf(
        Locale.ROOT,
        "%nregistry requests during %d re-fetches: %d (%d `%s`, %d blob)%n",
        runs,
        sent.size(),
        manifests,
        manifest,
        blobs);
    return sent.size() == runs && manifests == runs && blobs == 0;
  }

  private long generate(int files) throws IOException {
    long bytes = 0;
    for (int i = 0; i < files; i++) {
      String manifest =
          String.format(
              Locale.ROOT,
              "apiVersion: v1%nkind: ConfigMap%nmetadata:%n  name: config-%d%n"
                  + "  namespace: bench%ndata:%n  key: \"%s\"%n",
              i,
              "value-".repeat(40) + i);
      Path file = work.resolve("tree/app/group-" + (i % 20) + "/config-" + i + ".yaml");
      Files.createDirectories(file.getParent());
      Files.writeString(file, manifest);
      bytes += manifest.length();
    }
    return bytes;
  }

  private void push() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new PushCommand());
    cli.setOut(new PrintWriter(new StringWriter()));
    cli.setErr(new PrintWriter(err));
    int exit =
        cli.execute(
            "artifact",
            registry.url("bench/app") + ":" + TAG,
            "--path",
            work.resolve("tree").toString(),
            "--source",
            "https://git.example/bench/app.git",
            "--revision",
            "main@sha1:0123456789abcdef0123456789abcdef01234567",
            "--insecure-registry");
    if (exit != 0) {
      throw new IllegalStateException("capstan push artifact failed: " + err);
    }
  }

  private OciSource newSource() {
    Path store = work.resolve("store-" + stores++);
    return new OciSource(
        OciSourceOptions.of(new ArtifactStore(store, Clock.systemUTC()), Clock.systemUTC()));
  }

  private static void expect(Class<? extends FetchResult> type, FetchResult result) {
    if (!type.isInstance(result)) {
      throw new IllegalStateException("expected " + type.getSimpleName() + ", got " + result);
    }
  }

  private interface Step {
    void run() throws Exception;
  }

  private static double time(Step step) throws Exception {
    long t0 = System.nanoTime();
    step.run();
    return (System.nanoTime() - t0) / 1e6;
  }

  private static String row(String what, List<Double> millis) {
    List<Double> sorted = millis.stream().sorted().toList();
    return String.format(
        Locale.ROOT,
        "| %s (%d runs) | %.1f ms | %.1f ms | %.1f ms | %.1f ms |",
        what,
        sorted.size(),
        sorted.get(sorted.size() / 2),
        sorted.get((int) Math.min(sorted.size() - 1, Math.round(sorted.size() * 0.9))),
        sorted.get(0),
        sorted.get(sorted.size() - 1));
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
