package dev.capstan.source.core.store;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.ignore.IgnoreRules;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Applies ignore rules to a tree already written to disk (an unpacked archive) and computes its
 * digest as a Git tree's export does: kind, path and content of each kept entry, in path order, so
 * the same filtered tree gets the same digest whatever it came from.
 *
 * <p>What is ignored is deleted; an ignored directory is not entered. The tree holds only files and
 * directories (whoever wrote it left links out), so nothing here follows a link.
 */
public final class TreeFilter {

  /**
   * The deepest nesting of directories any tree in the store may have; the walks recurse per level.
   */
  public static final int MAX_DEPTH = 256;

  /**
   * Flux's default exclusions when an artifact is pushed: VCS files and binary or archive
   * extensions, as gitignore lines.
   */
  public static final String PUSH_DEFAULTS =
      String.join(
          "\n",
          ".git/",
          ".gitignore",
          ".gitmodules",
          ".gitattributes",
          "*.jpg",
          "*.jpeg",
          "*.gif",
          "*.png",
          "*.wmv",
          "*.flv",
          "*.tar.gz",
          "*.zip");

  /**
   * Flux's default exclusions for OCI artifacts: those of a push, and CI and tool configurations.
   * Used only when the source names no ignore rules of its own.
   */
  public static final String OCI_DEFAULTS =
      String.join(
          "\n",
          PUSH_DEFAULTS,
          ".github/",
          ".circleci/",
          ".travis.yml",
          ".gitlab-ci.yml",
          "appveyor.yml",
          ".drone.yml",
          "cloudbuild.yaml",
          "codeship-services.yml",
          "codeship-steps.yml",
          "**/.goreleaser.yml",
          "**/.sops.yaml",
          "**/.flux.yaml",
          "");

  private final MessageDigest digest = sha256();
  private final boolean deleting;
  private final boolean readsSourceIgnore;
  private final List<String> kept = new ArrayList<>();

  private TreeFilter(boolean deleting, boolean readsSourceIgnore) {
    this.deleting = deleting;
    this.readsSourceIgnore = readsSourceIgnore;
  }

  /**
   * Deletes what the rules ignore below {@code root} and returns the digest of what is left.
   *
   * @param specIgnore the source's own rules; when null, {@code defaults} apply instead
   * @return {@code sha256:<hex>}
   */
  public static String filter(Path root, String specIgnore, String defaults) throws IOException {
    return filter(root, specIgnore, defaults, Clock.systemUTC(), Instant.MAX);
  }

  /**
   * As {@link #filter(Path, String, String)}, for rules that came with the artifact or its source:
   * matching them checks {@code deadline} as it goes.
   *
   * @throws SourceException with {@link FailureReason#TIMEOUT} once the deadline has passed
   */
  public static String filter(
      Path root, String specIgnore, String defaults, Clock clock, Instant deadline)
      throws IOException {
    TreeFilter filter = new TreeFilter(true, true);
    Deadline until = new Deadline(clock, deadline);
    IgnoreRules rules =
        specIgnore == null
            ? IgnoreRules.root(null, defaults, until)
            : IgnoreRules.root(specIgnore, "", until);
    filter.walk(root, "", rules, 0);
    return "sha256:" + HexFormat.of().formatHex(filter.digest.digest());
  }

  /**
   * The files and directories below {@code root} that {@code rules} keep, in path order, without
   * touching the tree and without reading its {@code .sourceignore} files; links and special files
   * are left out. For packing a directory that is the user's own.
   */
  public static List<String> kept(Path root, String rules) throws IOException {
    TreeFilter filter = new TreeFilter(false, false);
    filter.walk(
        root, "", IgnoreRules.root(rules, "", new Deadline(Clock.systemUTC(), Instant.MAX)), 0);
    return List.copyOf(filter.kept);
  }

  private void walk(Path dir, String relative, IgnoreRules parentRules, int depth)
      throws IOException {
    if (depth > MAX_DEPTH) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "the tree nests directories more than " + MAX_DEPTH + " levels deep");
    }
    IgnoreRules rules =
        readsSourceIgnore ? parentRules.enter(relative, sourceIgnoreOf(dir)) : parentRules;
    for (Path child : sortedChildren(dir)) {
      String name = child.getFileName().toString();
      String path = relative.isEmpty() ? name : relative + "/" + name;
      boolean isDir = Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS);
      boolean file = Files.isRegularFile(child, LinkOption.NOFOLLOW_LINKS);
      if (rules.isIgnored(path, isDir) || (!isDir && !file)) {
        if (deleting) {
          ArtifactStore.deleteTree(child); // nothing but files and directories in an artifact
        }
      } else if (isDir) {
        kept.add(path);
        walk(child, path, rules, depth + 1);
      } else {
        kept.add(path);
        if (deleting) {
          record(child, path);
        }
      }
    }
  }

  /** Children in the order of their names' bytes, as Git orders a tree (near enough). */
  private static List<Path> sortedChildren(Path dir) throws IOException {
    List<Path> children = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      entries.forEach(children::add);
    }
    children.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
    return children;
  }

  private static byte[] sourceIgnoreOf(Path dir) throws IOException {
    Path file = dir.resolve(IgnoreRules.SOURCE_IGNORE);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > (1 << 20)) {
      return null;
    }
    return Files.readAllBytes(file);
  }

  private void record(Path file, String path) throws IOException {
    boolean executable =
        Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)
            .contains(PosixFilePermission.OWNER_EXECUTE);
    long size = Files.size(file);
    ByteArrayOutputStream header = new ByteArrayOutputStream();
    header.writeBytes((executable ? "x " : "f ").getBytes(StandardCharsets.UTF_8));
    header.writeBytes(path.getBytes(StandardCharsets.UTF_8));
    header.write(0);
    header.writeBytes(Long.toString(size).getBytes(StandardCharsets.UTF_8));
    header.write(0);
    digest.update(header.toByteArray());
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
      in.transferTo(OutputStreamSink.INSTANCE);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }

  /** Discards what it is given: the digest stream has already seen the bytes. */
  private static final class OutputStreamSink extends OutputStream {
    static final OutputStreamSink INSTANCE = new OutputStreamSink();

    @Override
    public void write(int b) {}

    @Override
    public void write(byte[] b, int off, int len) {}
  }
}
