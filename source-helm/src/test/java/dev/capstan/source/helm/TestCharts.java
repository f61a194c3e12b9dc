package dev.capstan.source.helm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * Packaged charts for tests, written entry by entry so that a test can put in what a hostile
 * archive holds: a link, a path with {@code ..}, a device.
 */
public final class TestCharts {
  private final Map<String, byte[]> files = new LinkedHashMap<>();
  private final Map<String, String> symlinks = new LinkedHashMap<>();
  private final Map<String, Byte> specials = new LinkedHashMap<>();

  /** A chart {@code name} at {@code version}, with a values.yaml and one template. */
  public static TestCharts chart(String name, String version) {
    return new TestCharts()
        .file(name + "/Chart.yaml", chartYaml(name, version))
        .file(name + "/values.yaml", "replicas: 1\nimage:\n  tag: stable\n")
        .file(
            name + "/templates/configmap.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n");
  }

  public static String chartYaml(String name, String version) {
    return "apiVersion: v2\nname: " + name + "\nversion: " + version + "\n";
  }

  public TestCharts file(String path, String content) {
    return file(path, content.getBytes(StandardCharsets.UTF_8));
  }

  public TestCharts file(String path, byte[] content) {
    files.put(path, content);
    return this;
  }

  public TestCharts without(String path) {
    files.remove(path);
    return this;
  }

  public TestCharts symlink(String path, String target) {
    symlinks.put(path, target);
    return this;
  }

  public TestCharts device(String path) {
    specials.put(path, TarConstants.LF_CHR);
    return this;
  }

  /** The archive as a {@code .tgz}. */
  public byte[] tgz() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes))) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        TarArchiveEntry entry = new TarArchiveEntry(file.getKey(), true);
        entry.setSize(file.getValue().length);
        entry.setMode(0100644);
        tar.putArchiveEntry(entry);
        tar.write(file.getValue());
        tar.closeArchiveEntry();
      }
      for (Map.Entry<String, String> link : symlinks.entrySet()) {
        TarArchiveEntry entry = new TarArchiveEntry(link.getKey(), TarConstants.LF_SYMLINK, true);
        entry.setLinkName(link.getValue());
        tar.putArchiveEntry(entry);
        tar.closeArchiveEntry();
      }
      for (Map.Entry<String, Byte> special : specials.entrySet()) {
        tar.putArchiveEntry(new TarArchiveEntry(special.getKey(), special.getValue(), true));
        tar.closeArchiveEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The sha256 hex digest of {@code bytes}, as an index writes a chart's. */
  public static String digest(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** An index.yaml listing {@code name}'s versions, each with its URL and digest. */
  public static String index(String name, Map<String, byte[]> versions) {
    StringBuilder index = new StringBuilder("apiVersion: v1\nentries:\n  " + name + ":\n");
    versions.forEach(
        (version, tgz) ->
            index
                .append("  - name: ")
                .append(name)
                .append("\n    version: ")
                .append(version)
                .append("\n    digest: ")
                .append(digest(tgz))
                .append("\n    urls:\n    - ")
                .append(name)
                .append('-')
                .append(version)
                .append(".tgz\n"));
    return index.toString();
  }
}
