package dev.capstan.source.helm;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.ignore.IgnoreRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A chart directory inside a source's artifact (a GitRepository's tree), read as Helm packages it:
 * {@code .helmignore} honoured (gitignore syntax, with Helm's default of hidden files in {@code
 * templates/}), links neither followed nor kept, bounded as a downloaded chart is ({@link
 * ChartLimits}). Its dependencies are kept as Helm keeps them: vendored under {@code charts/}
 * already, or a {@code file://} path inside the same artifact, packaged under {@code
 * charts/<name>/}; any other dependency is refused by name.
 */
final class ChartDirectory {
  static final String HELM_IGNORE = ".helmignore";

  /** {@code file://} dependencies of dependencies: deeper is taken for a cycle. */
  static final int MAX_DEPENDENCY_DEPTH = 8;

  private static final Logger LOG = LoggerFactory.getLogger(ChartDirectory.class);

  /** Downloads a dependency of a repository: the packaged chart's version and bytes. */
  @FunctionalInterface
  interface Remote {
    /** None: a dependency of a repository is refused by name. */
    Remote NONE =
        dep -> {
          throw new SourceException(
              FailureReason.DEPENDENCY_BUILD_FAILED,
              "dependency '"
                  + dep.name()
                  + "'"
                  + (dep.repository().isEmpty() ? "" : " of repository '" + dep.repository() + "'")
                  + " is not in charts/; only vendored and file:// dependencies are resolved");
        };

    /**
     * @throws SourceException {@code DependencyBuildError} naming the dependency
     */
    Downloaded fetch(ChartYaml.Dependency dependency);
  }

  /** A dependency downloaded: its version and its packaged chart. */
  record Downloaded(String version, byte[] tgz) {}

  private final Path root;
  private final ChartLimits limits;
  private final Deadline deadline;
  private final Remote remote;
  private long bytes;
  private int entries;

  private ChartDirectory(Path root, ChartLimits limits, Deadline deadline, Remote remote) {
    this.root = root.toAbsolutePath().normalize();
    this.limits = limits;
    this.deadline = deadline;
    this.remote = remote;
  }

  /**
   * The chart at {@code chartPath} (relative to {@code root}).
   *
   * @throws SourceException {@code InvalidChartReference} when the path leaves the artifact or
   *     holds no chart, {@code DependencyBuildError} for a dependency that cannot be kept, {@code
   *     ChartPackageError} for a chart past a bound
   */
  static ChartFiles read(Path root, String chartPath, ChartLimits limits, Deadline deadline) {
    return read(root, chartPath, limits, deadline, Remote.NONE);
  }

  /** As {@link #read(Path, String, ChartLimits, Deadline)}, with {@code remote}'s downloads. */
  static ChartFiles read(
      Path root, String chartPath, ChartLimits limits, Deadline deadline, Remote remote) {
    ChartDirectory reader = new ChartDirectory(root, limits, deadline, remote);
    return reader.chart(reader.inside(chartPath, "spec.chart"), chartPath, 0);
  }

  /** {@code path} (relative to the artifact's root) as a path inside it. */
  Path inside(String path, String field) {
    String clean = path.replace('\\', '/');
    Path resolved = root.resolve(clean.startsWith("/") ? clean.substring(1) : clean).normalize();
    if (!resolved.startsWith(root)) {
      throw new SourceException(
          FailureReason.INVALID_CHART_REFERENCE,
          field + " '" + path + "' leaves the source's artifact");
    }
    return resolved;
  }

  private ChartFiles chart(Path dir, String shown, int depth) {
    Path chartYaml = dir.resolve(ChartFiles.CHART_YAML);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
        || !Files.isRegularFile(chartYaml, LinkOption.NOFOLLOW_LINKS)) {
      throw new SourceException(
          FailureReason.INVALID_CHART_REFERENCE,
          "no chart at '"
              + shown
              + "' in the source's artifact (no "
              + ChartFiles.CHART_YAML
              + ")");
    }
    byte[] ignore = readIfFile(dir.resolve(HELM_IGNORE));
    IgnoreRules rules = IgnoreRules.root(null, "templates/.?*\n", deadline).enter("", ignore);
    Map<String, byte[]> files = new TreeMap<>();
    walk(dir, dir, rules, files);
    byte[] meta = files.get(ChartFiles.CHART_YAML);
    ChartYaml.Identity identity =
        ChartYaml.identity(
            meta, shown + "/" + ChartFiles.CHART_YAML, FailureReason.INVALID_CHART_REFERENCE);
    addDependencies(dir, shown, meta, files, depth);
    return new ChartFiles(identity.name(), identity.version(), new TreeMap<>(files));
  }

  private void walk(Path chartDir, Path dir, IgnoreRules rules, Map<String, byte[]> files) {
    List<Path> children;
    try (Stream<Path> list = Files.list(dir)) {
      children = list.sorted().toList();
    } catch (IOException e) {
      throw packageFailed(
          "the chart directory cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    for (Path child : children) {
      deadline.check();
      String path = chartDir.relativize(child).toString().replace('\\', '/');
      if (++entries > limits.entries()) {
        throw packageFailed("the chart has more than " + limits.entries() + " entries");
      }
      if (Files.isSymbolicLink(child)) {
        LOG.debug("left out the link {} of a chart directory", path);
        continue;
      }
      boolean directory = Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS);
      if (rules.isIgnored(path, directory)) {
        continue;
      }
      if (directory) {
        walk(chartDir, child, rules, files);
      } else if (Files.isRegularFile(child, LinkOption.NOFOLLOW_LINKS)) {
        files.put(path, bounded(child, path));
      }
    }
  }

  /** {@code size} more bytes in the chart, within its bound. */
  private void countBytes(long size) {
    bytes += size;
    if (bytes > limits.unpackedBytes()) {
      throw packageFailed(
          "the chart is larger than " + limits.unpackedBytes() + " bytes (the bound of a chart)");
    }
  }

  private byte[] bounded(Path file, String path) {
    try {
      long size = Files.size(file);
      if (size > limits.fileBytes()) {
        throw packageFailed(
            "'"
                + path
                + "' is larger than "
                + limits.fileBytes()
                + " bytes (the bound of a chart's file)");
      }
      countBytes(size);
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw packageFailed("'" + path + "' cannot be read (" + e.getClass().getSimpleName() + ")");
    }
  }

  /**
   * Each dependency Chart.yaml lists: vendored under {@code charts/} (a directory or a {@code .tgz}
   * of its name) is kept as it is; a {@code file://} one is read and packaged under {@code
   * charts/<name>/}; any other is refused by name.
   */
  private void addDependencies(
      Path dir, String shown, byte[] meta, Map<String, byte[]> files, int depth) {
    for (ChartYaml.Dependency dep :
        ChartYaml.dependencies(
            meta, shown + "/" + ChartFiles.CHART_YAML, FailureReason.INVALID_CHART_REFERENCE)) {
      if (vendored(files, dep.name())) {
        continue;
      }
      if (!dep.repository().startsWith("file://")) {
        Downloaded downloaded = remote.fetch(dep);
        // Downloaded charts count towards the chart's bounds like its own files: a Chart.yaml
        // may list many dependencies, each up to a whole chart's size.
        if (++entries > limits.entries()) {
          throw packageFailed("the chart has more than " + limits.entries() + " entries");
        }
        countBytes(downloaded.tgz().length);
        files.put("charts/" + dep.name() + "-" + downloaded.version() + ".tgz", downloaded.tgz());
        continue;
      }
      if (depth >= MAX_DEPENDENCY_DEPTH) {
        throw new SourceException(
            FailureReason.DEPENDENCY_BUILD_FAILED,
            "dependency '"
                + dep.name()
                + "': file:// dependencies nest deeper than "
                + MAX_DEPENDENCY_DEPTH
                + " levels (a cycle?)");
      }
      String relative = dep.repository().substring("file://".length());
      Path depDir = dir.resolve(relative).normalize();
      if (!depDir.startsWith(root)) {
        throw new SourceException(
            FailureReason.DEPENDENCY_BUILD_FAILED,
            "dependency '"
                + dep.name()
                + "' ("
                + dep.repository()
                + ") leaves the source's artifact");
      }
      ChartFiles sub = dependency(depDir, dep, depth);
      sub.files()
          .forEach((path, content) -> files.put("charts/" + sub.name() + "/" + path, content));
    }
  }

  private ChartFiles dependency(Path depDir, ChartYaml.Dependency dep, int depth) {
    try {
      return chart(depDir, root.relativize(depDir).toString(), depth + 1);
    } catch (SourceException e) {
      if (e.reason() == FailureReason.INVALID_CHART_REFERENCE) {
        throw new SourceException(
            FailureReason.DEPENDENCY_BUILD_FAILED,
            "dependency '" + dep.name() + "' (" + dep.repository() + "): " + e.getMessage());
      }
      throw e;
    }
  }

  private static boolean vendored(Map<String, byte[]> files, String name) {
    String dir = "charts/" + name + "/";
    String archive = "charts/" + name + "-";
    return files.keySet().stream()
        .anyMatch(p -> p.startsWith(dir) || (p.startsWith(archive) && p.endsWith(".tgz")));
  }

  private static byte[] readIfFile(Path file) {
    try {
      return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) ? Files.readAllBytes(file) : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static SourceException packageFailed(String message) {
    return new SourceException(FailureReason.CHART_PACKAGE_FAILED, message);
  }
}
