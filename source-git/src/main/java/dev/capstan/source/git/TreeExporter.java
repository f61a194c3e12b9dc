package dev.capstan.source.git;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.ignore.IgnoreRules;
import dev.capstan.source.core.store.TreeFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the filtered tree of one commit into a directory and computes its digest.
 *
 * <p>The digest covers, in tree order, each kept entry's kind, path and content, so equal filtered
 * trees get equal digests whatever commit they came from. No working tree or index is involved:
 * blobs are streamed from the object database straight to their files.
 */
final class TreeExporter {

  private static final Logger LOG = LoggerFactory.getLogger(TreeExporter.class);
  private static final Set<PosixFilePermission> EXECUTABLE =
      PosixFilePermissions.fromString("rwxr-xr-x");

  private final ObjectReader reader;
  private final Path target;
  private final Limits limits;
  private final MessageDigest digest;
  private final SparseCheckout sparse;
  private final Submodules submodules;
  private final Deadline deadline;
  private long written;
  private int entries;

  /** Symlinks whose text stays inside the tree, created after all files; path to target. */
  private final TreeMap<String, String> symlinks = new TreeMap<>();

  /**
   * What a tree may hold: bytes of files and link texts, entries (files, directories, links),
   * directory depth (the walk recurses once per level), and the length of an entry's name (what
   * file systems hold; it also bounds the work of matching a name against an ignore rule).
   */
  record Limits(long bytes, int entries) {
    static final int MAX_DEPTH = TreeFilter.MAX_DEPTH;
    static final int MAX_NAME_BYTES = 255;
  }

  /** Where a submodule's tree comes from when submodules are exported. */
  interface Submodules {
    /**
     * The tree of {@code commit}, checked out at {@code path}, or null to leave it out.
     *
     * @throws SourceException when the submodule cannot be fetched
     */
    ObjectId treeOf(String path, ObjectId commit) throws IOException;
  }

  private TreeExporter(
      ObjectReader reader,
      Path target,
      Limits limits,
      SparseCheckout sparse,
      Submodules submodules,
      Deadline deadline) {
    this.reader = reader;
    this.target = target;
    this.limits = limits;
    this.digest = sha256();
    this.sparse = sparse;
    this.submodules = submodules;
    this.deadline = deadline;
  }

  /**
   * Exports {@code tree} into the empty directory {@code target}, keeping only what {@code sparse}
   * admits, and exporting submodules from {@code submodules} (null: left out).
   *
   * @return the digest, {@code sha256:<hex>}
   * @throws SourceException with {@link FailureReason#SIZE_LIMIT_EXCEEDED} past a limit, with
   *     {@link FailureReason#TIMEOUT} once the deadline has passed
   */
  static String export(
      ObjectReader reader,
      ObjectId tree,
      String specIgnore,
      Path target,
      Limits limits,
      SparseCheckout sparse,
      Submodules submodules,
      Deadline deadline)
      throws IOException {
    TreeExporter exporter = new TreeExporter(reader, target, limits, sparse, submodules, deadline);
    exporter.walk(tree, "", IgnoreRules.root(specIgnore, deadline), 0);
    exporter.linkSymlinks();
    return "sha256:" + HexFormat.of().formatHex(exporter.digest.digest());
  }

  private void walk(ObjectId treeId, String dir, IgnoreRules parentRules, int depth)
      throws IOException {
    if (depth > Limits.MAX_DEPTH) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "the filtered tree nests directories more than " + Limits.MAX_DEPTH + " levels deep");
    }
    CanonicalTreeParser entries = new CanonicalTreeParser(null, reader, treeId);
    IgnoreRules rules = parentRules.enter(dir, sourceIgnoreOf(treeId));
    for (; !entries.eof(); entries.next(1)) {
      deadline.check();
      if (entries.getNameLength() > Limits.MAX_NAME_BYTES) {
        throw new SourceException(
            FailureReason.SIZE_LIMIT_EXCEEDED,
            "the tree has an entry in '"
                + (dir.isEmpty() ? "/" : dir)
                + "' whose name is longer than "
                + Limits.MAX_NAME_BYTES
                + " bytes");
      }
      String name = entries.getEntryPathString();
      if (name.equals(".") || name.equals("..") || name.contains("/") || name.isEmpty()) {
        continue; // malformed tree entry that could address a path outside the target
      }
      String path = dir.isEmpty() ? name : dir + "/" + name;
      FileMode mode = entries.getEntryFileMode();
      ObjectId id = entries.getEntryObjectId();
      boolean isSubmodule = mode == FileMode.GITLINK;
      boolean isDir = mode == FileMode.TREE || isSubmodule;
      if (rules.isIgnored(path, isDir) || !sparse.admits(path, isDir)) {
        continue;
      }
      if (isSubmodule) {
        ObjectId tree = submodules == null ? null : submodules.treeOf(path, id);
        if (tree == null) {
          continue; // submodules are exported only when asked for
        }
        countEntry(path);
        Files.createDirectory(target.resolve(path));
        walk(tree, path, rules, depth + 1);
        continue;
      }
      countEntry(path);
      if (isDir) {
        Files.createDirectory(target.resolve(path));
        walk(id, path, rules, depth + 1);
      } else if (mode == FileMode.SYMLINK) {
        writeSymlink(path, id);
      } else {
        writeFile(path, id, mode == FileMode.EXECUTABLE_FILE);
      }
    }
  }

  private byte[] sourceIgnoreOf(ObjectId treeId) throws IOException {
    CanonicalTreeParser entries = new CanonicalTreeParser(null, reader, treeId);
    for (; !entries.eof(); entries.next(1)) {
      if (IgnoreRules.SOURCE_IGNORE.equals(entries.getEntryPathString())
          && entries.getEntryFileMode().getObjectType() == Constants.OBJ_BLOB
          && entries.getEntryFileMode() != FileMode.SYMLINK) {
        return reader.open(entries.getEntryObjectId()).getCachedBytes(1 << 20);
      }
    }
    return null;
  }

  private void writeFile(String path, ObjectId blob, boolean executable) throws IOException {
    ObjectLoader loader = reader.open(blob);
    account(path, loader.getSize());
    record(executable ? "x " : "f ", path, loader.getSize());
    Path file = target.resolve(path);
    try (OutputStream out = new DigestOutputStream(Files.newOutputStream(file), digest)) {
      loader.copyTo(out);
    }
    if (executable) {
      Files.setPosixFilePermissions(file, EXECUTABLE);
    }
  }

  /** Notes the link if its text stays inside the tree; it is created after all files. */
  private void writeSymlink(String path, ObjectId blob) throws IOException {
    byte[] bytes = reader.open(blob).getCachedBytes(4096);
    String linkTarget = new String(bytes, StandardCharsets.UTF_8);
    if (!staysInside(path, linkTarget)) {
      LOG.debug("left out symlink {} -> {}: it points outside the tree", path, linkTarget);
      return;
    }
    account(path, bytes.length);
    symlinks.put(path, linkTarget);
  }

  /**
   * Creates the noted links, then drops any that does not resolve to a path inside the tree. The
   * text check alone is not enough: a link to a directory link (say {@code d -> .}) can climb out
   * through {@code d/..}. Dropping one link may leave another dangling, so repeat until nothing
   * changes; the digest then covers the links that remain.
   */
  private void linkSymlinks() throws IOException {
    for (var link : symlinks.entrySet()) {
      Files.createSymbolicLink(target.resolve(link.getKey()), Paths.get(link.getValue()));
    }
    Path root = target.toRealPath();
    boolean changed = true;
    while (changed) {
      changed = false;
      for (var it = symlinks.entrySet().iterator(); it.hasNext(); ) {
        deadline.check(); // each round resolves every link left, and a round may drop only one
        var link = it.next();
        Path linkPath = target.resolve(link.getKey());
        if (!resolvesInside(linkPath, root)) {
          LOG.debug(
              "left out symlink {} -> {}: it does not resolve inside the tree",
              link.getKey(),
              link.getValue());
          Files.delete(linkPath);
          it.remove();
          changed = true;
        }
      }
    }
    for (var link : symlinks.entrySet()) {
      byte[] text = link.getValue().getBytes(StandardCharsets.UTF_8);
      record("l ", link.getKey(), text.length);
      digest.update(text);
    }
  }

  private static boolean resolvesInside(Path link, Path root) {
    try {
      return link.toRealPath().startsWith(root);
    } catch (IOException dangling) {
      return false;
    }
  }

  /** Pure path arithmetic on the link text: never touches, let alone follows, the file system. */
  static boolean staysInside(String linkPath, String linkTarget) {
    if (linkTarget.isEmpty() || linkTarget.startsWith("/") || linkTarget.indexOf('\0') >= 0) {
      return false;
    }
    Path parent = Paths.get(linkPath).getParent();
    Path resolved = (parent == null ? Paths.get("") : parent).resolve(linkTarget).normalize();
    return !resolved.toString().equals("..")
        && !resolved.startsWith("..")
        && !resolved.isAbsolute();
  }

  private void account(String path, long size) {
    written += size;
    if (written > limits.bytes()) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "the filtered tree exceeds the size limit of "
              + limits.bytes()
              + " bytes (at '"
              + path
              + "')");
    }
  }

  private void countEntry(String path) {
    if (++entries > limits.entries()) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "the filtered tree has more than "
              + limits.entries()
              + " files, directories and links (at '"
              + path
              + "')");
    }
  }

  private void record(String kind, String path, long size) {
    ByteArrayOutputStream header = new ByteArrayOutputStream();
    header.writeBytes(kind.getBytes(StandardCharsets.UTF_8));
    header.writeBytes(path.getBytes(StandardCharsets.UTF_8));
    header.write(0);
    header.writeBytes(Long.toString(size).getBytes(StandardCharsets.UTF_8));
    header.write(0);
    digest.update(header.toByteArray());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
