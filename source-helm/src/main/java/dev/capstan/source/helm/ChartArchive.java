package dev.capstan.source.helm;

import dev.capstan.source.core.BoundedBody;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * A packaged chart ({@code .tgz}): read as hostile input into {@link ChartFiles}, and written as
 * Helm packages a chart. Reading checks it is a gzip-compressed tar of one directory holding a
 * Chart.yaml with a name and a version; a link (symbolic or hard), a device or other special file,
 * an absolute path or one with {@code ..} refuses the whole archive, and so does passing a bound
 * ({@link ChartLimits}: the bytes unpacked, a file's bytes, the entries). Writing is reproducible:
 * the same files give the same bytes (entries in order, Chart.yaml first, fixed times and modes).
 */
final class ChartArchive {
  private static final int MAX_NAME = 4096;

  private ChartArchive() {}

  /**
   * The chart in {@code tgz}.
   *
   * @param what the archive in messages (its URL or file name)
   * @throws SourceException with {@code reason} naming what is wrong and where
   */
  static ChartFiles read(InputStream tgz, ChartLimits limits, String what, FailureReason reason) {
    Map<String, byte[]> files = new TreeMap<>();
    String top = null;
    int entries = 0;
    try (TarArchiveInputStream tar =
        new TarArchiveInputStream(
            new BoundedBody(
                new GZIPInputStream(tgz, 65536),
                limits.unpackedBytes(),
                () ->
                    new SourceException(
                        reason,
                        what
                            + " unpacks to more than "
                            + limits.unpackedBytes()
                            + " bytes (the bound of a chart)")))) {
      TarArchiveEntry entry;
      while ((entry = tar.getNextEntry()) != null) {
        if (++entries > limits.entries()) {
          throw new SourceException(
              reason, what + " has more than " + limits.entries() + " entries");
        }
        String path = checkedPath(entry.getName(), what, reason);
        checkType(entry, path, what, reason);
        int slash = path.indexOf('/');
        String first = slash < 0 ? path : path.substring(0, slash);
        if (top == null) {
          top = first;
        } else if (!top.equals(first)) {
          throw new SourceException(
              reason, what + " holds more than one top directory ('" + top + "', '" + first + "')");
        }
        if (entry.isDirectory() || slash < 0) {
          continue;
        }
        files.put(path.substring(slash + 1), content(tar, entry, path, limits, what, reason));
      }
    } catch (SourceException e) {
      throw e;
    } catch (ZipException e) {
      throw new SourceException(reason, what + " is not gzip-compressed");
    } catch (IOException e) {
      throw new SourceException(
          reason,
          what + " is truncated or not a tar archive (" + e.getClass().getSimpleName() + ")");
    }
    byte[] chartYaml = files.get(ChartFiles.CHART_YAML);
    if (chartYaml == null) {
      throw new SourceException(reason, what + " has no " + ChartFiles.CHART_YAML);
    }
    ChartYaml.Identity identity =
        ChartYaml.identity(chartYaml, top + "/" + ChartFiles.CHART_YAML, reason);
    return new ChartFiles(identity.name(), identity.version(), new TreeMap<>(files));
  }

  /** Writes {@code chart} as a {@code .tgz} of {@code <name>/...}, as Helm packages a chart. */
  static byte[] write(ChartFiles chart) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(bytes);
        TarArchiveOutputStream tar = new TarArchiveOutputStream(gzip)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      List<String> order = new ArrayList<>(chart.files().keySet());
      order.remove(ChartFiles.CHART_YAML);
      order.add(0, ChartFiles.CHART_YAML);
      for (String path : order) {
        writeFile(tar, chart.name() + "/" + path, chart.files().get(path));
      }
      tar.finish();
    }
    return bytes.toByteArray();
  }

  private static void writeFile(TarArchiveOutputStream tar, String name, byte[] content)
      throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry(name);
    entry.setSize(content.length);
    entry.setMode(0100644);
    entry.setModTime(0);
    tar.putArchiveEntry(entry);
    tar.write(content);
    tar.closeArchiveEntry();
  }

  private static byte[] content(
      InputStream tar,
      TarArchiveEntry entry,
      String path,
      ChartLimits limits,
      String what,
      FailureReason reason)
      throws IOException {
    if (entry.getSize() > limits.fileBytes()) {
      throw fileTooLarge(path, limits, what, reason);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    copy(tar, out, limits.fileBytes(), () -> fileTooLarge(path, limits, what, reason));
    return out.toByteArray();
  }

  private static void copy(
      InputStream in, OutputStream out, long max, Supplier<SourceException> over)
      throws IOException {
    byte[] buffer = new byte[16384];
    long total = 0;
    int n;
    while ((n = in.read(buffer)) >= 0) {
      total += n;
      if (total > max) {
        throw over.get();
      }
      out.write(buffer, 0, n);
    }
  }

  private static SourceException fileTooLarge(
      String path, ChartLimits limits, String what, FailureReason reason) {
    return new SourceException(
        reason,
        "'"
            + shown(path)
            + "' in "
            + what
            + " is larger than "
            + limits.fileBytes()
            + " bytes (the bound of a chart's file)");
  }

  /** Only files and directories: a link or a special file refuses the archive, as Helm does. */
  private static void checkType(
      TarArchiveEntry entry, String path, String what, FailureReason reason) {
    byte flag = entry.getLinkFlag();
    if (entry.isSymbolicLink() || entry.isLink()) {
      throw new SourceException(
          reason, what + " holds a link ('" + shown(path) + "'); a chart holds files only");
    }
    boolean file =
        flag == TarConstants.LF_NORMAL
            || flag == TarConstants.LF_OLDNORM
            || flag == TarConstants.LF_CONTIG;
    if (!file && !entry.isDirectory()) {
      throw new SourceException(
          reason, what + " holds a device or other special file ('" + shown(path) + "')");
    }
  }

  /** The entry's path, normalized; refused when absolute or leaving the archive's tree. */
  static String checkedPath(String name, String what, FailureReason reason) {
    if (name.length() > MAX_NAME || name.indexOf('\0') >= 0) {
      throw new SourceException(reason, what + " has an entry with an invalid name");
    }
    String path = name.replace('\\', '/');
    if (path.startsWith("/") || path.matches("^[A-Za-z]:.*")) {
      throw new SourceException(reason, what + " holds an absolute path ('" + shown(name) + "')");
    }
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        throw new SourceException(
            reason, what + " holds a path leaving the chart ('" + shown(name) + "')");
      }
      parts.add(part);
    }
    if (parts.isEmpty()) {
      throw new SourceException(reason, what + " has an entry with an empty name");
    }
    return String.join("/", parts);
  }

  /** A path from the archive as a message shows it: printable, and not too long. */
  private static String shown(String path) {
    String printable = path.replaceAll("[\\p{Cntrl}]", "?");
    return printable.length() > 200 ? printable.substring(0, 200) + "..." : printable;
  }
}
