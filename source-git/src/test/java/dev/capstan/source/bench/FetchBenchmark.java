package dev.capstan.source.bench;

import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.git.FetchRequest;
import dev.capstan.source.git.GitRef;
import dev.capstan.source.git.GitSource;
import dev.capstan.source.git.GitSourceOptions;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.git.transport.UrlScheme;
import dev.capstan.source.testing.DaemonGitServer;
import dev.capstan.source.testing.HttpGitServer;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Fetch speed on a generated repository (default 5,000 files, 500 commits), served on loopback by
 * JGit's daemon (git://) and smart HTTP: first fetch and no-change re-fetch in this process, side
 * by side with {@code git clone --depth 1} of the same URL.
 *
 * <p>Usage: {@code FetchBenchmark [files] [commits] [runs]}. Prints a Markdown table.
 */
public final class FetchBenchmark {

  private final Path work;
  private final int runs;
  private int uniq;

  private FetchBenchmark(Path work, int runs) {
    this.work = work;
    this.runs = runs;
  }

  public static void main(String[] args) throws Exception {
    int files = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int commits = args.length > 1 ? Integer.parseInt(args[1]) : 500;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Path work = Files.createTempDirectory("capstan-bench");
    try {
      Path repo = work.resolve("served/bench");
      long t0 = System.nanoTime();
      RepoGenerator.generate(repo, files, commits);
      System.out.printf(
          Locale.ROOT,
          "generated %d files, %d commits in %.1f s%n",
          files,
          commits,
          (System.nanoTime() - t0) / 1e9);
      FetchBenchmark bench = new FetchBenchmark(work, runs);
      List<String> rows = new ArrayList<>();
      try (DaemonGitServer daemon = DaemonGitServer.start(work.resolve("served"))) {
        rows.addAll(bench.measure("git://", daemon.url("bench")));
      }
      try (HttpGitServer http = HttpGitServer.anonymous(work.resolve("served"))) {
        rows.addAll(bench.measure("http://", http.url("bench")));
      }
      System.out.println();
      System.out.println("| protocol | measurement | median | min | max |");
      System.out.println("|---|---|---|---|---|");
      rows.forEach(System.out::println);
    } finally {
      delete(work);
    }
  }

  private List<String> measure(String protocol, String url) throws Exception {
    List<String> rows = new ArrayList<>();
    // One untimed round first, so the JVM's first-use costs are not counted as fetch time.
    firstFetch(url, "warmup");
    gitClone(url, "warmup");

    List<Double> clone = new ArrayList<>();
    List<Double> first = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      clone.add(gitClone(url, "clone-" + i));
      first.add(firstFetch(url, "first-" + i));
    }
    GitSource source = newSource("refetch");
    FetchRequest request = FetchRequest.of("bench/app", url, GitRef.branch("main"));
    expect(FetchResult.Fetched.class, source.fetch(request));
    List<Double> refetch = new ArrayList<>();
    for (int i = 0; i < Math.max(20, runs * 4); i++) {
      refetch.add(time(() -> expect(FetchResult.Unchanged.class, source.fetch(request))));
    }
    rows.add(row(protocol, "`git clone --depth 1`", clone));
    rows.add(row(protocol, "first fetch (GitSource)", first));
    rows.add(row(protocol, "no-change re-fetch (GitSource)", refetch));
    rows.add(
        String.format(
            Locale.ROOT,
            "| %s | first fetch / git clone | %.2f× | | |",
            protocol,
            median(first) / median(clone)));
    return rows;
  }

  private double firstFetch(String url, String name) throws IOException {
    GitSource source = newSource(name);
    return time(
        () ->
            expect(
                FetchResult.Fetched.class,
                source.fetch(FetchRequest.of("bench/app", url, GitRef.branch("main")))));
  }

  private GitSource newSource(String name) {
    return new GitSource(
        GitSourceOptions.at(work.resolve("store-" + name + "-" + uniq++))
            .withAllowedSchemes(UrlScheme.all())
            .withRetry(RetryPolicy.none()));
  }

  private double gitClone(String url, String name) throws Exception {
    Path target = work.resolve("git-" + name + "-" + uniq++);
    ProcessBuilder pb =
        new ProcessBuilder(
                "git", "clone", "-q", "--depth", "1", "--branch", "main", url, target.toString())
            .inheritIO();
    long start = System.nanoTime();
    int exit = pb.start().waitFor();
    double ms = (System.nanoTime() - start) / 1e6;
    if (exit != 0) {
      throw new IllegalStateException("git clone failed with exit " + exit);
    }
    return ms;
  }

  private static double time(Supplier<?> action) {
    long start = System.nanoTime();
    action.get();
    return (System.nanoTime() - start) / 1e6;
  }

  private static FetchResult expect(Class<? extends FetchResult> kind, FetchResult result) {
    if (!kind.isInstance(result)) {
      throw new IllegalStateException("expected " + kind.getSimpleName() + ", got " + result);
    }
    return result;
  }

  private static String row(String protocol, String what, List<Double> ms) {
    return String.format(
        Locale.ROOT,
        "| %s | %s | %.1f ms | %.1f ms | %.1f ms |",
        protocol,
        what,
        median(ms),
        ms.stream().min(Double::compare).orElseThrow(),
        ms.stream().max(Double::compare).orElseThrow());
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static void delete(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Writes the repository with {@code git fast-import}: one big commit, then small ones. */
  static final class RepoGenerator {
    private RepoGenerator() {}

    static void generate(Path dir, int files, int commits) throws Exception {
      Files.createDirectories(dir);
      run(dir, "git", "init", "-q", "-b", "main");
      Process p =
          new ProcessBuilder("git", "fast-import", "--quiet")
              .directory(dir.toFile())
              .redirectOutput(ProcessBuilder.Redirect.INHERIT)
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      Random random = new Random(42);
      try (OutputStream out = new BufferedOutputStream(p.getOutputStream(), 1 << 16)) {
        for (int c = 0; c < commits; c++) {
          StringBuilder changes = new StringBuilder();
          if (c == 0) {
            for (int f = 0; f < files; f++) {
              changes.append(modify(f, 0, random));
            }
          } else {
            for (int k = 0; k < 10; k++) {
              changes.append(modify(random.nextInt(files), c, random));
            }
          }
          String msg = "commit " + c;
          String header =
              "commit refs/heads/main\ncommitter Bench <bench@example.invalid> "
                  + (1_700_000_000L + c)
                  + " +0000\ndata "
                  + msg.length()
                  + "\n"
                  + msg
                  + "\n";
          out.write(header.getBytes(StandardCharsets.UTF_8));
          out.write(changes.toString().getBytes(StandardCharsets.UTF_8));
          out.write('\n');
        }
      }
      if (p.waitFor() != 0) {
        throw new IllegalStateException("git fast-import failed");
      }
      run(dir, "git", "reset", "-q", "--hard");
      run(dir, "git", "gc", "-q");
    }

    private static String modify(int file, int commit, Random random) {
      StringBuilder body = new StringBuilder();
      body.append("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-")
          .append(file)
          .append("\ndata:\n  revision: \"")
          .append(commit)
          .append("\"\n");
      int lines = 10 + random.nextInt(30);
      for (int i = 0; i < lines; i++) {
        body.append("  key")
            .append(i)
            .append(": ")
            .append(Long.toHexString(random.nextLong()))
            .append('\n');
      }
      byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
      String path = "apps/team-" + (file % 50) + "/svc-" + (file % 500) + "/cm-" + file + ".yaml";
      return "M 100644 inline " + path + "\ndata " + bytes.length + "\n" + body + "\n";
    }

    private static void run(Path dir, String... command) throws Exception {
      Process p = new ProcessBuilder(command).directory(dir.toFile()).inheritIO().start();
      if (p.waitFor() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed");
      }
    }
  }
}
