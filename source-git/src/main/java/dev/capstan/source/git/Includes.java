package dev.capstan.source.git;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.IncludedRevision;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Copies other sources' stored artifacts into an exported tree ({@code spec.include}). Only trees
 * of this store are read, looked up by digest; nothing outside the included tree's {@code fromPath}
 * is copied and nothing is written outside the exported tree.
 */
final class Includes {

  private final ArtifactStore store;
  private final TreeExporter.Limits limits;
  private final Deadline deadline;
  private long bytes;
  private int entries;

  Includes(ArtifactStore store, TreeExporter.Limits limits, Deadline deadline) {
    this.store = store;
    this.limits = limits;
    this.deadline = deadline;
  }

  /** Copies each inclusion, in order, into {@code exported}; later ones overwrite earlier files. */
  List<IncludedRevision> copy(List<Inclusion> inclusions, Path exported) throws IOException {
    List<IncludedRevision> done = new ArrayList<>();
    Path root = exported.toRealPath();
    for (int i = 0; i < inclusions.size(); i++) {
      Inclusion inc = inclusions.get(i);
      String from = RelativePaths.normalize(inc.fromPath(), "spec.include[" + i + "].fromPath");
      String to = RelativePaths.normalize(inc.target(), "spec.include[" + i + "].toPath");
      Path tree = ArtifactStore.isDigest(inc.digest()) ? store.artifactDir(inc.digest()) : null;
      if (tree == null || !Files.isDirectory(tree)) {
        throw new SourceException(
            FailureReason.INCLUDE_UNAVAILABLE,
            "the artifact of included " + "GitRepository '" + inc.name() + "' is not in storage");
      }
      Path source = tree.resolve(from);
      if (!Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS)) {
        throw new SourceException(
            FailureReason.INCLUDE_UNAVAILABLE,
            "spec.include["
                + i
                + "].fromPath: the artifact of GitRepository '"
                + inc.name()
                + "' has no directory '"
                + from
                + "'");
      }
      Path target = exported.resolve(to);
      Files.createDirectories(target);
      if (!target.toRealPath().startsWith(root)) {
        throw new SourceException(
            FailureReason.INVALID_SPEC,
            "spec.include[" + i + "].toPath '" + to + "' leads outside the artifact");
      }
      copyTree(source.toRealPath(), target.toRealPath());
      done.add(new IncludedRevision(inc.name(), inc.revision(), inc.digest(), to));
    }
    return done;
  }

  /** The artifact's digest: its own tree's, combined with each included revision and place. */
  static String combine(
      String ownDigest, List<IncludedRevision> included, List<Inclusion> requested) {
    MessageDigest sha = sha256();
    sha.update(ownDigest.getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < included.size(); i++) {
      IncludedRevision inc = included.get(i);
      for (String part :
          new String[] {
            inc.name(),
            inc.revision(),
            inc.digest(),
            String.valueOf(requested.get(i).fromPath()),
            inc.toPath()
          }) {
        sha.update((byte) 0);
        sha.update(part.getBytes(StandardCharsets.UTF_8));
      }
    }
    return "sha256:" + HexFormat.of().formatHex(sha.digest());
  }

  private void copyTree(Path source, Path target) throws IOException {
    Files.walkFileTree(
        source,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            Path to = target.resolve(source.relativize(dir).toString());
            if (Files.exists(to, LinkOption.NOFOLLOW_LINKS)
                && !Files.isDirectory(to, LinkOption.NOFOLLOW_LINKS)) {
              Files.delete(to); // an included directory replaces a file or link of the same name
            }
            Files.createDirectories(to);
            count(dir, 0);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Path to = target.resolve(source.relativize(file).toString());
            if (attrs.isSymbolicLink()) {
              copyLink(file, to);
            } else if (attrs.isRegularFile()) {
              count(file, attrs.size());
              if (Files.isDirectory(to, LinkOption.NOFOLLOW_LINKS)) {
                ArtifactStore.deleteTree(to);
              }
              Files.copy(
                  file,
                  to,
                  StandardCopyOption.REPLACE_EXISTING,
                  StandardCopyOption.COPY_ATTRIBUTES,
                  LinkOption.NOFOLLOW_LINKS);
            }
            return FileVisitResult.CONTINUE;
          }

          /**
           * A link is kept only if it resolves inside the copied directory, as it will after the
           * copy.
           */
          private void copyLink(Path link, Path to) throws IOException {
            Path text = Files.readSymbolicLink(link);
            boolean inside;
            try {
              inside = !text.isAbsolute() && link.toRealPath().startsWith(source);
            } catch (IOException dangling) {
              inside = false;
            }
            if (inside) {
              count(link, text.toString().length());
              Files.deleteIfExists(to);
              Files.createSymbolicLink(to, text);
            }
          }
        });
  }

  private void count(Path path, long size) {
    deadline.check();
    bytes += size;
    if (++entries > limits.entries() || bytes > limits.bytes()) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "the included artifacts exceed "
              + "the limit of "
              + limits.entries()
              + " entries or "
              + limits.bytes()
              + " bytes");
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
