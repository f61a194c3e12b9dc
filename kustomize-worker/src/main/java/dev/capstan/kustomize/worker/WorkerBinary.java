package dev.capstan.kustomize.worker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * A build worker's executable for this machine, of one {@link WorkerKind}. The jar carries those of
 * the machine it was built on, or with {@code -Prelease} those of every supported platform, with
 * their SHA-256 digests (recorded in the repository's {@code kustomize-worker/worker.sha256}); this
 * machine's is unpacked into a directory that only this user can write, below directories that only
 * this user or root can write ({@link SafeDirectories}), and is checked against its recorded digest
 * when it is unpacked. A later unpacking finds it there and hashes it again only when it is no
 * longer the file that was checked (its size, modification time or inode changed since, as a stamp
 * beside it records). Every start of a worker hashes it again ({@link #verified()}): one changed
 * since is unpacked anew, never run. A directory given by {@code CAPSTAN_KUSTOMIZE_WORKER_DIR} (the
 * container image's) is used as it is, under the same rules for the directories above it; a worker
 * there that no longer has its digest is refused.
 */
public final class WorkerBinary {
  /** Where the Maven build puts the workers among the jar's resources. */
  static final String RESOURCES = "/dev/capstan/kustomize/worker/";

  /**
   * A directory holding {@code <os>-<arch>/capstan-kustomize-worker} and {@code
   * capstan-chart-worker}, used instead of the jar's.
   */
  public static final String DIRECTORY_VARIABLE = "CAPSTAN_KUSTOMIZE_WORKER_DIR";

  private final Path path;
  private final Platform platform;
  private final WorkerKind kind;
  private final String digest;
  private final SafeDirectories directories;
  // where it was unpacked from the jar; null for a directory of workers given
  private final Path cache;

  private WorkerBinary(
      Path path,
      Platform platform,
      WorkerKind kind,
      String digest,
      SafeDirectories directories,
      Path cache) {
    this.path = path;
    this.platform = platform;
    this.kind = kind;
    this.digest = digest;
    this.directories = directories;
    this.cache = cache;
  }

  public Path path() {
    return path;
  }

  public Platform platform() {
    return platform;
  }

  public WorkerKind kind() {
    return kind;
  }

  /** The user's cache for unpacked workers: {@code $XDG_CACHE_HOME/capstan/worker}. */
  public static Path defaultCacheDirectory() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path cache =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return cache.resolve("capstan").resolve("worker");
  }

  /** This machine's kustomize worker: {@link #forThisMachine(Path, WorkerKind)}. */
  public static WorkerBinary forThisMachine(Path cacheDirectory) {
    return forThisMachine(cacheDirectory, WorkerKind.KUSTOMIZE);
  }

  /**
   * This machine's worker of a kind: from {@code CAPSTAN_KUSTOMIZE_WORKER_DIR} when it is set, else
   * unpacked from the jar into {@code cacheDirectory}.
   *
   * @throws WorkerException ({@link WorkerException.Cause#UNAVAILABLE}) for an unsupported
   *     platform, a digest that does not match, or a cache directory others could write
   */
  public static WorkerBinary forThisMachine(Path cacheDirectory, WorkerKind kind) {
    return forThisMachine(cacheDirectory, kind, System.getenv(DIRECTORY_VARIABLE));
  }

  /**
   * As {@link #forThisMachine(Path, WorkerKind)}, with the directory of workers given (null: none).
   */
  static WorkerBinary forThisMachine(Path cacheDirectory, WorkerKind kind, String directory) {
    Platform host = Platform.host();
    if (!host.supported()) {
      throw unavailable(
          "the build worker is not available for "
              + host
              + "; it is built for "
              + Platform.supportedList());
    }
    String expected = recordedDigests().get(host.entry(kind));
    if (expected == null) {
      throw unavailable(
          "this jar carries no "
              + kind.executableName(host)
              + " for "
              + host
              + ": it was built for another machine only (mvn -Prelease builds a jar for "
              + Platform.supportedList()
              + ")");
    }
    SafeDirectories directories = new SafeDirectories();
    if (directory != null && !directory.isBlank()) {
      Path given = given(Path.of(directory).resolve(host.entry(kind)), directories);
      check(given, expected);
      return new WorkerBinary(given, host, kind, expected, directories, null);
    }
    return new WorkerBinary(
        unpack(host, kind, expected, cacheDirectory, directories, true),
        host,
        kind,
        expected,
        directories,
        cacheDirectory);
  }

  /** The worker of a given directory, by its real path, once the directories above are checked. */
  private static Path given(Path binary, SafeDirectories directories) {
    try {
      Path real = binary.toRealPath();
      directories.checkFromHereUp(real.getParent());
      return real;
    } catch (IOException e) {
      throw unavailable("there is no build worker at " + binary + ": " + e.getMessage());
    }
  }

  /**
   * The executable, hashed again: every start of a worker asks for it, so that a file changed since
   * it was checked never runs. One unpacked from the jar is unpacked again; one of a given
   * directory is refused.
   *
   * @throws WorkerException ({@link WorkerException.Cause#UNAVAILABLE}) when it cannot be had
   */
  synchronized Path verified() {
    try {
      if (digestOf(path).equals(digest)) {
        return path;
      }
    } catch (IOException e) {
      // unpacked again below, or refused
    }
    if (cache == null) {
      throw unavailable(
          "the build worker at "
              + path
              + " no longer has the digest this jar records (it changed after it was checked)"
              + " and is not started");
    }
    return unpack(platform, kind, digest, cache, directories, false);
  }

  /**
   * Unpacks the worker into the cache, or finds it there; with {@code trustStamp}, one that the
   * stamp beside it says was checked is not hashed again.
   */
  private static Path unpack(
      Platform host,
      WorkerKind kind,
      String expected,
      Path cacheDirectory,
      SafeDirectories directories,
      boolean trustStamp) {
    try {
      Path cache = directories.privateDirectory(cacheDirectory).toRealPath();
      directories.checkFromHereUp(cache);
      Path directory = directories.privateDirectory(cache.resolve(expected.substring(0, 16)));
      Path target = directory.resolve(kind.executableName(host));
      Path stamp = directory.resolve(kind.executableName(host) + ".checked");
      if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)
          && ((trustStamp && stampOf(target, expected).equals(readStamp(stamp)))
              || digestOf(target).equals(expected))) {
        writeStamp(stamp, stampOf(target, expected));
        return target;
      }
      Path partial = Files.createTempFile(directory, "unpacking-", ".partial");
      try {
        String written = copyOut(host.entry(kind), partial);
        if (!written.equals(expected)) {
          throw unavailable(
              "the build worker in this jar does not have its recorded digest (a damaged jar?)");
        }
        makeExecutable(partial);
        move(partial, target);
      } finally {
        Files.deleteIfExists(partial);
      }
      check(target, expected);
      writeStamp(stamp, stampOf(target, expected));
      return target;
    } catch (IOException e) {
      throw unavailable(
          "the build worker cannot be unpacked into " + cacheDirectory + ": " + e.getMessage());
    }
  }

  /** What identifies the file that was checked: its digest, size, modification time and inode. */
  private static String stampOf(Path file, String digest) throws IOException {
    BasicFileAttributes attributes =
        Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    return digest
        + " "
        + attributes.size()
        + " "
        + attributes.lastModifiedTime().toMillis()
        + " "
        + attributes.fileKey();
  }

  private static String readStamp(Path stamp) {
    try {
      return Files.isRegularFile(stamp, LinkOption.NOFOLLOW_LINKS)
          ? Files.readString(stamp, StandardCharsets.UTF_8)
          : "";
    } catch (IOException e) {
      return "";
    }
  }

  private static void writeStamp(Path stamp, String value) throws IOException {
    if (!value.equals(readStamp(stamp))) {
      Path partial = Files.createTempFile(stamp.getParent(), "stamp-", ".partial");
      Files.writeString(partial, value, StandardCharsets.UTF_8);
      move(partial, stamp);
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static String copyOut(String entry, Path to) throws IOException {
    try (InputStream in = WorkerBinary.class.getResourceAsStream(RESOURCES + entry)) {
      if (in == null) {
        throw unavailable("this jar carries no build worker " + entry);
      }
      MessageDigest sha256 = sha256();
      try (OutputStream out = new DigestOutputStream(Files.newOutputStream(to), sha256)) {
        in.transferTo(out);
      }
      return HexFormat.of().formatHex(sha256.digest());
    }
  }

  private static void makeExecutable(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r-x------"));
    } catch (UnsupportedOperationException e) {
      // Windows runs any .exe the user may read
    }
  }

  private static void check(Path binary, String expected) {
    try {
      if (!Files.isRegularFile(binary)) {
        throw unavailable("there is no build worker at " + binary);
      }
      if (!digestOf(binary).equals(expected)) {
        throw unavailable(
            "the build worker at " + binary + " does not have the digest this jar records");
      }
    } catch (IOException e) {
      throw unavailable("the build worker at " + binary + " cannot be read: " + e.getMessage());
    }
  }

  static String digestOf(Path file) throws IOException {
    MessageDigest sha256 = sha256();
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha256.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(sha256.digest());
  }

  /** The digests the Maven build recorded: platform entry → SHA-256. */
  static Map<String, String> recordedDigests() {
    Map<String, String> digests = new HashMap<>();
    try (InputStream in = WorkerBinary.class.getResourceAsStream(RESOURCES + "digests")) {
      if (in == null) {
        throw unavailable("this jar carries no build workers (built without them?)");
      }
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line; (line = lines.readLine()) != null; ) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length == 2) {
          digests.put(fields[1], fields[0]);
        }
      }
    } catch (IOException e) {
      throw unavailable("the build workers' digests cannot be read: " + e.getMessage());
    }
    return digests;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static WorkerException unavailable(String message) {
    return new WorkerException(WorkerException.Cause.UNAVAILABLE, message);
  }
}
