package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.oci.Safe;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Checks that a downloaded file is a packaged chart, as Helm's archive loader checks one before
 * loading it: tar+gzip, every entry under one top directory, no absolute path and no {@code ..}, no
 * links or special files, within Helm's bounds of what a chart decompresses to (100 MiB, a file 5
 * MiB), and a {@code Chart.yaml} at its top naming the chart and version that were asked for.
 * Nothing is unpacked: the archive is read once as a stream.
 */
final class ChartArchive {
  /** Helm's bounds of a chart archive (its loader's defaults). */
  record Limits(long maxDecompressed, long maxFile, int maxEntries) {
    static final Limits DEFAULTS = new Limits(100L << 20, 5L << 20, 10_000);
  }

  private final Limits limits;

  ChartArchive(Limits limits) {
    this.limits = limits;
  }

  /** What a chart's {@code Chart.yaml} says it is. */
  record Metadata(String name, String version) {}

  /**
   * @throws SourceException {@code OCIArtifactLayerOperationFailed} naming what is wrong
   */
  Metadata check(Path archive, String chart, String version) {
    Metadata metadata = read(archive);
    if (!chart.equals(metadata.name())) {
      throw invalid(
          "its Chart.yaml names chart '" + Safe.text(metadata.name()) + "', not '" + chart + "'");
    }
    if (!version.equals(metadata.version().replace('_', '+'))) {
      throw invalid(
          "its Chart.yaml has version '"
              + Safe.text(metadata.version())
              + "', not the tag's '"
              + version
              + "'");
    }
    return metadata;
  }

  private Metadata read(Path archive) {
    String top = null;
    byte[] chartYaml = null;
    long total = 0;
    int entries = 0;
    try (InputStream file = Files.newInputStream(archive);
        TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(file))) {
      TarArchiveEntry entry;
      while ((entry = tar.getNextEntry()) != null) {
        if (++entries > limits.maxEntries()) {
          throw invalid("it has more than " + limits.maxEntries() + " entries");
        }
        String name = entry.getName();
        checkKind(entry, name);
        String entryTop = topOf(name);
        if (top == null) {
          top = entryTop;
        } else if (!top.equals(entryTop)) {
          throw invalid("it has content outside its top directory '" + Safe.text(top) + "'");
        }
        if (entry.isDirectory()) {
          continue;
        }
        if (entry.getSize() > limits.maxFile()) {
          throw invalid("'" + Safe.text(name) + "' is larger than " + limits.maxFile() + " bytes");
        }
        total += entry.getSize();
        if (total > limits.maxDecompressed()) {
          throw invalid("it decompresses to more than " + limits.maxDecompressed() + " bytes");
        }
        byte[] body = readBounded(tar, limits.maxFile(), name);
        if (name.equals(top + "/Chart.yaml")) {
          chartYaml = body;
        }
      }
    } catch (IOException e) {
      throw invalid("it is no tar+gzip archive (" + e.getClass().getSimpleName() + ")");
    }
    if (chartYaml == null) {
      throw invalid("it has no Chart.yaml in its top directory");
    }
    return metadataOf(chartYaml);
  }

  private static void checkKind(TarArchiveEntry entry, String name) {
    if (name.startsWith("/") || name.contains("\\") || (name + "/").contains("../")) {
      throw invalid("entry '" + Safe.text(name) + "' leaves the chart's directory");
    }
    if (!entry.isDirectory() && !regularFile(entry)) {
      throw invalid("entry '" + Safe.text(name) + "' is a link or a special file");
    }
  }

  /** A regular file by its type flag (commons-compress's isFile takes a link for a file). */
  private static boolean regularFile(TarArchiveEntry entry) {
    byte flag = entry.getLinkFlag();
    return flag == TarArchiveEntry.LF_NORMAL
        || flag == TarArchiveEntry.LF_OLDNORM
        || flag == TarArchiveEntry.LF_CONTIG;
  }

  private static String topOf(String name) {
    String path = name.startsWith("./") ? name.substring(2) : name;
    int slash = path.indexOf('/');
    if (slash <= 0) {
      throw invalid("entry '" + Safe.text(name) + "' is not in a chart directory");
    }
    return path.substring(0, slash);
  }

  /** The body of the current entry; one byte more than the bound is never read. */
  private static byte[] readBounded(InputStream in, long max, String name) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    long read = 0;
    int n;
    while ((n = in.read(buffer)) > 0) {
      read += n;
      if (read > max) {
        throw invalid("'" + Safe.text(name) + "' is larger than " + max + " bytes");
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  private static Metadata metadataOf(byte[] chartYaml) {
    Object loaded;
    try {
      LoadSettings settings =
          LoadSettings.builder().setAllowDuplicateKeys(true).setMaxAliasesForCollections(0).build();
      loaded = new Load(settings).loadFromString(new String(chartYaml, StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      throw invalid("its Chart.yaml is not YAML");
    }
    if (!(loaded instanceof Map<?, ?> map)
        || !(map.get("name") instanceof String name)
        || name.isEmpty()) {
      throw invalid("its Chart.yaml has no name");
    }
    Object version = map.get("version");
    if (version == null || String.valueOf(version).isEmpty()) {
      throw invalid("its Chart.yaml has no version");
    }
    return new Metadata(name, String.valueOf(version));
  }

  private static SourceException invalid(String why) {
    return new SourceException(
        FailureReason.OCI_LAYER_FAILED, "the chart layer is no valid chart archive: " + why);
  }
}
