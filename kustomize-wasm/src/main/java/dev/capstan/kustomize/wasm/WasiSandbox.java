package dev.capstan.kustomize.wasm;

import com.dylibso.chicory.log.Logger;
import com.dylibso.chicory.runtime.HostFunction;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.WasmFunctionHandle;
import com.dylibso.chicory.wasi.WasiOptions;
import com.dylibso.chicory.wasi.WasiPreview1;
import com.dylibso.chicory.wasi.WasiPreview1_ModuleFactory;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The WASI functions one kustomize instance imports. They are bound anew for every call, to that
 * call's artifact directory (preopened at {@value KustomizeInstance#ARTIFACT_ROOT}) and output
 * streams, and every function that would change a file answers EROFS: the module reads the
 * directory it is given and can reach nothing else. The preopen keeps its descriptor number from
 * binding to binding, which is what the module's Go runtime remembers from its start.
 *
 * <p>The monotonic clock runs on from {@code monotonicStart}: an instance restored from a memory
 * image must never see its clock go back before the image's.
 */
final class WasiSandbox {
  private static final Set<String> WRITES =
      Set.of(
          "path_create_directory",
          "path_link",
          "path_remove_directory",
          "path_rename",
          "path_symlink",
          "path_unlink_file",
          "path_filestat_set_times",
          "fd_filestat_set_size",
          "fd_filestat_set_times",
          "fd_allocate");
  // Values from the WASI preview 1 specification: oflags creat, excl, trunc; rights fd_write,
  // fd_allocate; fdflags append; clockid monotonic; errno rofs.
  private static final int OPEN_WRITE_FLAGS = 1 | 4 | 8;
  private static final long WRITE_RIGHTS = (1L << 6) | (1L << 8);
  private static final int APPEND = 1;
  private static final int MONOTONIC = 1;
  private static final long[] READ_ONLY = {69};
  private static final long[] SUCCESS = {0};
  private static final Logger QUIET = new QuietLogger();

  private final HostFunction[] imports;
  private final Random random;
  private final long monotonicOffset;
  private volatile Map<String, WasmFunctionHandle> bound = Map.of();

  /**
   * @param random the module's source of random bytes (seeded only for reproducible images)
   * @param monotonicStart the least value the monotonic clock may show
   */
  WasiSandbox(Random random, long monotonicStart) {
    this.random = random;
    this.monotonicOffset = Math.max(0, monotonicStart - System.nanoTime());
    WasiPreview1 template = WasiPreview1.builder().withLogger(QUIET).build();
    this.imports =
        Arrays.stream(WasiPreview1_ModuleFactory.toHostFunctions(template))
            .map(f -> new HostFunction(f.module(), f.name(), f.functionType(), dispatch(f.name())))
            .toArray(HostFunction[]::new);
    template.close();
  }

  WasiSandbox() {
    this(new SecureRandom(), 0);
  }

  HostFunction[] imports() {
    return imports.clone();
  }

  long monotonicNanos() {
    return System.nanoTime() + monotonicOffset;
  }

  /** Binds the functions to one call; closing the binding unbinds them. */
  Binding bind(Path artifactRoot, OutputStream stdout, OutputStream stderr) {
    WasiPreview1 wasi =
        WasiPreview1.builder()
            .withLogger(QUIET)
            .withOptions(
                WasiOptions.builder()
                    .withDirectory(KustomizeInstance.ARTIFACT_ROOT, artifactRoot)
                    .withStdout(stdout)
                    .withStderr(stderr)
                    .withRandom(random)
                    .build())
            .build();
    Map<String, WasmFunctionHandle> handles = new HashMap<>();
    for (HostFunction f : WasiPreview1_ModuleFactory.toHostFunctions(wasi)) {
      handles.put(f.name(), f.handle());
    }
    bound = handles;
    return () -> {
      bound = Map.of();
      wasi.close();
    };
  }

  /** A bound set of functions, for the duration of one call into the module. */
  interface Binding extends AutoCloseable {
    @Override
    void close();
  }

  private WasmFunctionHandle dispatch(String name) {
    if (WRITES.contains(name)) {
      return (instance, args) -> READ_ONLY;
    }
    return switch (name) {
      case "path_open" ->
          (instance, args) -> opensForWriting(args) ? READ_ONLY : call(name, instance, args);
      case "clock_time_get" ->
          (instance, args) -> {
            if (args[0] != MONOTONIC) {
              return call(name, instance, args);
            }
            instance.memory().writeLong((int) args[2], monotonicNanos());
            return SUCCESS;
          };
      default -> (instance, args) -> call(name, instance, args);
    };
  }

  private long[] call(String name, Instance instance, long... args) {
    WasmFunctionHandle handle = bound.get(name);
    if (handle == null) {
      throw new IllegalStateException("WASI function " + name + " called outside a build");
    }
    return handle.apply(instance, args);
  }

  /**
   * path_open(fd, lookupflags, path, path_len, oflags, rights_base, rights_inheriting, fdflags,
   * fd_out).
   */
  private static boolean opensForWriting(long[] args) {
    return (args[4] & OPEN_WRITE_FLAGS) != 0
        || (args[5] & WRITE_RIGHTS) != 0
        || (args[7] & APPEND) != 0;
  }

  /** WASI calls the module makes are not worth a log line each. */
  private static final class QuietLogger implements Logger {
    @Override
    public void log(Level level, String msg, Throwable throwable) {
      // nothing: failures reach the host as the module's own error messages
    }

    @Override
    public boolean isLoggable(Level level) {
      return false;
    }
  }
}
