package dev.capstan.decryption;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The committed YAML and JSON files of an artifact by the encrypted MACs they hold, made by one
 * walk over the artifact, so that every encrypted object of a build finds its committed document
 * without another walk. The walk is bounded in files and bytes read; past either bound the index is
 * refused rather than partial, so that an object is never reported as "unknown" only because its
 * file was not looked at.
 */
final class MacIndex {
  /** How much of an artifact one walk reads at most: YAML and JSON files, and bytes over them. */
  record Bounds(int files, long bytes) {
    static final Bounds DEFAULT = new Bounds(20_000, 128L << 20);
  }

  // A MAC entry as sops writes it in YAML (mac: ENC[…]) and JSON ("mac": "ENC[…]").
  private static final Pattern MAC =
      Pattern.compile(
          "\"?mac\"?[ \\t]*:[ \\t]*[\"']?(ENC\\[AES256_GCM,[A-Za-z0-9+/=,:_]{1,1024}\\])");
  private static final String MARKER = "ENC[AES256_GCM,";

  private final Map<String, List<String>> filesByMac;

  private MacIndex(Map<String, List<String>> filesByMac) {
    this.filesByMac = filesByMac;
  }

  /**
   * Walks {@code root} (not following links, skipping {@code .git}).
   *
   * @throws DecryptionException when the artifact has more YAML and JSON than the bounds allow
   */
  static MacIndex of(Path root) throws IOException {
    return of(root, Bounds.DEFAULT);
  }

  static MacIndex of(Path root, Bounds bounds) throws IOException {
    Walk walk = new Walk(root, bounds);
    Files.walkFileTree(root, walk);
    return new MacIndex(walk.index);
  }

  /** The committed files (paths relative to the root, sorted) holding {@code mac}. */
  List<String> filesWith(String mac) {
    return filesByMac.getOrDefault(mac, List.of()).stream().sorted().toList();
  }

  /**
   * A committed file's bytes, at most {@link SopsDecryptor#MAX_DOCUMENT_BYTES}: the walk looks only
   * at files within that bound, and one that grew since is refused rather than read whole.
   */
  static byte[] read(Path file) throws IOException {
    byte[] content;
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      content = in.readNBytes(SopsDecryptor.MAX_DOCUMENT_BYTES + 1);
    }
    if (content.length > SopsDecryptor.MAX_DOCUMENT_BYTES) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "the document is larger than " + (SopsDecryptor.MAX_DOCUMENT_BYTES >> 20) + " MiB");
    }
    return content;
  }

  private static final class Walk extends SimpleFileVisitor<Path> {
    private final Path root;
    private final Map<String, List<String>> index = new HashMap<>();
    private final Bounds bounds;
    private int files;
    private long bytes;

    Walk(Path root, Bounds bounds) {
      this.root = root;
      this.bounds = bounds;
    }

    @Override
    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
      return dir.getFileName() != null && dir.getFileName().toString().equals(".git")
          ? FileVisitResult.SKIP_SUBTREE
          : FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
      SopsFormat format = SopsFormat.forPath(file.getFileName().toString());
      if (!attrs.isRegularFile()
          || attrs.size() > SopsDecryptor.MAX_DOCUMENT_BYTES
          || (format != SopsFormat.YAML && format != SopsFormat.JSON)) {
        return FileVisitResult.CONTINUE;
      }
      files++;
      bytes += attrs.size();
      if (files > bounds.files() || bytes > bounds.bytes()) {
        throw new DecryptionException(
            DecryptionException.Problem.MALFORMED,
            "the artifact has more than "
                + bounds.files()
                + " YAML and JSON files or "
                + (bounds.bytes() >> 20)
                + " MiB of them to look through for the committed documents of encrypted objects");
      }
      String name = root.relativize(file).toString();
      String text;
      try {
        text = new String(read(file), StandardCharsets.ISO_8859_1);
      } catch (DecryptionException e) {
        throw e.in("file '" + name + "'");
      }
      if (!text.contains(MARKER)) {
        return FileVisitResult.CONTINUE;
      }
      Matcher m = MAC.matcher(text);
      while (m.find()) {
        List<String> holders = index.computeIfAbsent(m.group(1), k -> new ArrayList<>(1));
        if (!holders.contains(name)) {
          holders.add(name);
        }
      }
      return FileVisitResult.CONTINUE;
    }
  }
}
