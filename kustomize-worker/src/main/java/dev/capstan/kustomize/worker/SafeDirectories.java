package dev.capstan.kustomize.worker;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The directories a worker executable is run from: no other user may replace it there. A user who
 * may write the directory holding it, or any directory above, could put another program in its
 * place (or another directory in the place of one of them), which would then run every build.
 */
final class SafeDirectories {
  private static final int STICKY = 01000;

  private final String me;

  /** For the user this JVM runs as. */
  SafeDirectories() {
    this(System.getProperty("user.name"));
  }

  SafeDirectories(String me) {
    this.me = me;
  }

  /**
   * Creates {@code dir} for this user only, or checks that an existing one is this user's and that
   * no one else may write it; returns it.
   */
  Path privateDirectory(Path dir) throws IOException {
    try {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (FileAlreadyExistsException e) {
      throw unavailable(dir + " is not a directory");
    } catch (UnsupportedOperationException e) {
      Files.createDirectories(dir); // no POSIX permissions (Windows): the user's profile holds it
      return dir;
    }
    PosixFileAttributes attributes = attributes(dir);
    if (!attributes.isDirectory()
        || !attributes.owner().getName().equals(me)
        || othersMayWrite(attributes.permissions())) {
      throw unavailable(
          dir + " must be a directory of " + me + " that no other user may write (chmod 700)");
    }
    return dir;
  }

  /**
   * Checks {@code dir} (a real path: no symbolic links) and every directory above it: each belongs
   * to this user or to root, and no one else may write it, unless it is sticky like {@code /tmp}
   * (where no one may rename or remove an entry of another user).
   */
  void checkFromHereUp(Path dir) throws IOException {
    if (!Files.getFileStore(dir).supportsFileAttributeView("posix")) {
      return; // Windows: the user's profile holds the cache
    }
    for (Path p = dir; p != null; p = p.getParent()) {
      PosixFileAttributes attributes = attributes(p);
      String owner = attributes.owner().getName();
      boolean trusted = owner.equals(me) || owner.equals("root");
      if (!trusted || (othersMayWrite(attributes.permissions()) && !sticky(p))) {
        throw unavailable(
            p
                + " holds the build worker (or a directory above it) and must belong to "
                + me
                + " or root and be writable by no other user (or be sticky, like /tmp):"
                + " another user could put another program in the worker's place");
      }
    }
  }

  private static PosixFileAttributes attributes(Path p) throws IOException {
    return Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
  }

  private static boolean othersMayWrite(Set<PosixFilePermission> permissions) {
    return permissions.contains(PosixFilePermission.GROUP_WRITE)
        || permissions.contains(PosixFilePermission.OTHERS_WRITE);
  }

  /** The sticky bit, which only the JDK's "unix" view (Linux, macOS) shows. */
  private static boolean sticky(Path p) {
    try {
      Object mode = Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      return mode instanceof Integer bits && (bits & STICKY) != 0;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return false;
    }
  }

  private static WorkerException unavailable(String message) {
    return new WorkerException(WorkerException.Cause.UNAVAILABLE, message);
  }
}
