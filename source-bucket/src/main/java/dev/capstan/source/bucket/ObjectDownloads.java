package dev.capstan.source.bucket;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Downloads the objects of an index into a directory, a few at once, each file confined to the
 * directory, each object and all of them together bounded in size (checked against the listing
 * first and then while reading, whatever the server sends). Returns the digest of the tree: the
 * sha256 of {@code <path>\0<size>\0<sha256 of content>\n} of every file, paths in byte order.
 */
final class ObjectDownloads {
  private final BucketLimits limits;

  ObjectDownloads(BucketLimits limits) {
    this.limits = limits;
  }

  /** Fails before any download when the listing already says an object or the total is over. */
  void checkListedSizes(ObjectIndex index) {
    long total = 0;
    for (ListingParser.Listed object : index.objects().values()) {
      if (object.size() > limits.maxObjectBytes()) {
        throw tooLarge(object.key(), object.size());
      }
      total += object.size();
    }
    if (total > limits.maxTotalBytes()) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "the objects total "
              + total
              + " bytes, over the bound of "
              + limits.maxTotalBytes()
              + " bytes");
    }
  }

  /** Downloads every object of {@code index} below {@code dir}; returns the tree's digest. */
  String download(S3Client client, ObjectIndex index, Path dir, Map<String, byte[]> extra)
      throws IOException {
    SortedMap<String, String> lines = new TreeMap<>(ObjectIndex.BYTE_ORDER);
    AtomicLong total = new AtomicLong();
    int threads = Math.max(1, Math.min(limits.concurrency(), index.objects().size()));
    ExecutorService pool = Executors.newFixedThreadPool(threads, ObjectDownloads::daemon);
    try {
      List<Future<String>> pending = new ArrayList<>();
      for (String key : index.objects().keySet()) {
        pending.add(pool.submit(() -> one(client, key, dir, total)));
      }
      List<String> keys = List.copyOf(index.objects().keySet());
      for (int i = 0; i < pending.size(); i++) {
        lines.put(keys.get(i), await(pending.get(i)));
      }
    } finally {
      pool.shutdownNow();
    }
    for (var file : extra.entrySet()) {
      Files.write(inside(dir, file.getKey()), file.getValue());
      lines.put(
          file.getKey(), line(file.getKey(), file.getValue().length, sha256(file.getValue())));
    }
    MessageDigest tree = newSha256();
    lines.values().forEach(l -> tree.update(l.getBytes(StandardCharsets.UTF_8)));
    return "sha256:" + HexFormat.of().formatHex(tree.digest());
  }

  private String one(S3Client client, String key, Path dir, AtomicLong total) throws IOException {
    Path file = inside(dir, key);
    Files.createDirectories(file.getParent());
    InputStream body =
        client
            .get(key)
            .orElseThrow(() -> ObjectIndex.refused(key, "was deleted during the download"));
    MessageDigest sha256 = newSha256();
    long size = 0;
    try (InputStream in = body;
        OutputStream out = Files.newOutputStream(file)) {
      byte[] buffer = new byte[1 << 16];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        size += n;
        if (size > limits.maxObjectBytes()) {
          throw tooLarge(key, size);
        }
        if (total.addAndGet(n) > limits.maxTotalBytes()) {
          throw new SourceException(
              FailureReason.SIZE_LIMIT_EXCEEDED,
              "the objects are larger than the bound of " + limits.maxTotalBytes() + " bytes");
        }
        sha256.update(buffer, 0, n);
        out.write(buffer, 0, n);
      }
    }
    return line(key, size, HexFormat.of().formatHex(sha256.digest()));
  }

  /** The file of {@code key} below {@code dir}; refused when it would be anywhere else. */
  static Path inside(Path dir, String key) {
    Path file = dir.resolve(key).normalize();
    if (!file.startsWith(dir) || file.equals(dir)) {
      throw ObjectIndex.refused(key, "maps outside the artifact");
    }
    return file;
  }

  private static String await(Future<String> pending) throws IOException {
    try {
      return pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SourceException(FailureReason.BUCKET_OPERATION_FAILED, "interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SourceException source) {
        throw source;
      }
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private SourceException tooLarge(String key, long size) {
    return new SourceException(
        FailureReason.SIZE_LIMIT_EXCEEDED,
        "object '"
            + ObjectIndex.shown(key)
            + "' is "
            + size
            + " bytes or more, over the bound of "
            + limits.maxObjectBytes()
            + " bytes an object");
  }

  private static String line(String path, long size, String sha256) {
    return path + "\0" + size + "\0" + sha256 + "\n";
  }

  private static String sha256(byte[] content) {
    return HexFormat.of().formatHex(newSha256().digest(content));
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }

  private static Thread daemon(Runnable r) {
    Thread thread = new Thread(r, "capstan-bucket-download");
    thread.setDaemon(true);
    return thread;
  }
}
