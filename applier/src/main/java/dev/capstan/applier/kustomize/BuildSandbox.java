package dev.capstan.applier.kustomize;

import dev.capstan.kustomize.worker.WorkerBinary;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where builds may read, and how strictly they are confined. Every build runs in a worker process
 * that may read the tree below {@code root} (every artifact built must be in it) and nothing else;
 * on Linux the kernel holds it there (Landlock, a seccomp filter, a hard memory limit). Where the
 * kernel cannot (no Landlock), a {@link Confinement#REQUIRED} sandbox refuses to build.
 *
 * @param root the directory whose tree builds may read
 * @param confinement whether a worker the kernel does not confine may build
 * @param workerCache where the worker's executable is unpacked ({@link WorkerBinary})
 * @param landlock whether workers enter Landlock; false only to see what happens on a kernel
 *     without it ({@link #withoutLandlock()}), where their system call filter still holds
 */
public record BuildSandbox(Path root, Confinement confinement, Path workerCache, boolean landlock) {

  /** Whether builds must be confined by the kernel. */
  public enum Confinement {
    /** The engine's, which builds what tenants commit: no build without the kernel's sandbox. */
    REQUIRED,
    /**
     * The command line's, which builds the user's own files, and the engine's when its operator
     * allows it: without the kernel's sandbox the worker still reads only below the root, by its
     * own file system, and each build says it ran unconfined.
     */
    ALLOWED_UNCONFINED
  }

  public BuildSandbox {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(confinement, "confinement");
    Objects.requireNonNull(workerCache, "workerCache");
  }

  /**
   * For tenants' artifacts below {@code root}: the kernel's sandbox unless the operator says so.
   */
  public static BuildSandbox forTenants(Path root, boolean allowUnconfined) {
    return new BuildSandbox(
        root,
        allowUnconfined ? Confinement.ALLOWED_UNCONFINED : Confinement.REQUIRED,
        WorkerBinary.defaultCacheDirectory(),
        true);
  }

  /** For the user's own files below {@code root}: confined where the kernel can. */
  public static BuildSandbox forUser(Path root) {
    return new BuildSandbox(
        root, Confinement.ALLOWED_UNCONFINED, WorkerBinary.defaultCacheDirectory(), true);
  }

  /**
   * This sandbox with workers that do not enter Landlock: what every build meets on a kernel
   * without it, for tests of the policy above.
   */
  public BuildSandbox withoutLandlock() {
    return new BuildSandbox(root, confinement, workerCache, false);
  }
}
