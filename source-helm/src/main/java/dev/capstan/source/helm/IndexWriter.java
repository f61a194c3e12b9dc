package dev.capstan.source.helm;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Writes the compact index a repository's artifact holds: Helm's index.yaml layout ({@code
 * apiVersion}, {@code entries} by chart name, each chart's versions highest first) with only what
 * {@link ChartVersion} keeps, every value a double-quoted string. Helm reads it as an index; the
 * digest of its bytes is the artifact's revision, as Flux's revision is the digest of the index it
 * stores, so the same entries give the same revision whatever order the server wrote them in.
 */
final class IndexWriter {
  /** The file of the artifact's directory that holds the index. */
  static final String FILE = "index.yaml";

  private IndexWriter() {}

  /** Writes {@code index} to {@code file}; returns {@code sha256:<hex>} of what was written. */
  static String write(ParsedIndex index, Path file) throws IOException {
    MessageDigest sha256 = sha256();
    try (OutputStream out = Files.newOutputStream(file);
        Writer writer =
            new BufferedWriter(
                new OutputStreamWriter(new DigestOutputStream(out, sha256), StandardCharsets.UTF_8),
                1 << 16)) {
      writer.write("apiVersion: v1\nentries:");
      if (index.entries().isEmpty()) {
        writer.write(" {}");
      }
      writer.write('\n');
      for (var chart : index.entries().entrySet()) {
        writer.write("  " + quoted(chart.getKey()) + ":\n");
        for (ChartVersion version : chart.getValue()) {
          write(writer, version);
        }
      }
    }
    return "sha256:" + HexFormat.of().formatHex(sha256.digest());
  }

  private static void write(Writer writer, ChartVersion version) throws IOException {
    writer.write("  - name: " + quoted(version.name()) + "\n");
    writer.write("    version: " + quoted(version.version()) + "\n");
    field(writer, "appVersion", version.appVersion());
    field(writer, "created", version.created());
    field(writer, "digest", version.digest());
    List<String> urls = version.urls();
    writer.write(urls.isEmpty() ? "    urls: []\n" : "    urls:\n");
    for (String url : urls) {
      writer.write("    - " + quoted(url) + "\n");
    }
  }

  private static void field(Writer writer, String name, String value) throws IOException {
    if (value != null) {
      writer.write("    " + name + ": " + quoted(value) + "\n");
    }
  }

  /**
   * A YAML double-quoted scalar: quotes and backslashes escaped, and every character YAML does not
   * allow as it is (controls, line and paragraph separators, the byte order mark) written as an
   * escape.
   */
  static String quoted(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20
          || (c >= 0x7f && c <= 0x9f)
          || c == '\u2028'
          || c == '\u2029'
          || c == '\ufeff') {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
