package dev.capstan.kustomize.wasm;

import com.dylibso.chicory.runtime.ByteArrayMemory;
import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.ImportValues;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.MemoryLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Optional;

/**
 * One instance of the kustomize module (see {@code go/main.go} for its protocol): started from the
 * module's memory image, then any number of builds, one at a time. Its linear memory is capped; an
 * instance that failed in any way other than with a build error must be thrown away. Not
 * thread-safe.
 */
public final class KustomizeInstance {
  /** Where the module sees the artifact it builds from. */
  public static final String ARTIFACT_ROOT = "/artifact";

  private static final int PAGE_BYTES = 64 * 1024;

  private final Instance instance;
  private final WasiSandbox wasi;
  private final ExportFunction alloc;
  private final ExportFunction build;
  private final ExportFunction collect;
  private final Path emptyDirectory;

  private KustomizeInstance(Instance instance, WasiSandbox wasi, Path emptyDirectory) {
    this.instance = instance;
    this.wasi = wasi;
    this.emptyDirectory = emptyDirectory;
    this.alloc = instance.export("capstan_alloc");
    this.build = instance.export("capstan_build");
    this.collect = instance.export("capstan_collect");
  }

  /**
   * A ready instance with at most {@code maxMemoryBytes} of linear memory, restored from the
   * module's memory image (or, without one, started cold). {@code emptyDirectory} is what the Go
   * runtime sees as the artifact outside builds.
   */
  public static KustomizeInstance start(
      long maxMemoryBytes, Path emptyDirectory, OutputStream log) {
    Optional<MemoryImage.Header> image = MemoryImage.header();
    WasiSandbox wasi =
        new WasiSandbox(
            new SecureRandom(), image.map(MemoryImage.Header::monotonicNanos).orElse(0L));
    Instance instance =
        image.isPresent()
            ? instantiate(LeanModule.load(), wasi, image.get().pages(), maxMemoryBytes)
            : instantiate(KustomizeModule.load(), wasi, 0, maxMemoryBytes);
    if (image.isPresent()) {
      MemoryImage.restore(instance);
    } else {
      try (WasiSandbox.Binding ignored = wasi.bind(emptyDirectory, log, log)) {
        instance.export("_initialize").apply();
      }
    }
    return new KustomizeInstance(instance, wasi, emptyDirectory);
  }

  /**
   * Starts the module's Go runtime and prepares it (parses what every build needs), then writes its
   * state as the memory image that {@link #start} restores; returns the pages written.
   */
  static int writeImage(Path emptyDirectory, OutputStream log, OutputStream image)
      throws IOException {
    WasiSandbox wasi = new WasiSandbox();
    Instance instance = instantiate(KustomizeModule.load(), wasi, 0, 256L << 20);
    try (WasiSandbox.Binding ignored = wasi.bind(emptyDirectory, log, log)) {
      instance.export("_initialize").apply();
      instance.export("capstan_prepare").apply();
    }
    return MemoryImage.write(instance, wasi.monotonicNanos(), image);
  }

  /** An instance with at least {@code pages} of memory and at most {@code maxMemoryBytes}. */
  private static Instance instantiate(
      WasmModule module, WasiSandbox wasi, int pages, long maxMemoryBytes) {
    MemoryLimits declared = module.memorySection().orElseThrow().getMemory(0).limits();
    int initialPages = Math.max(declared.initialPages(), pages);
    int maxPages =
        (int) Math.min(MemoryLimits.MAX_PAGES, Math.max(initialPages, maxMemoryBytes / PAGE_BYTES));
    return Instance.builder(module)
        .withImportValues(ImportValues.builder().addFunction(wasi.imports()).build())
        .withMachineFactory(KustomizeModule::create)
        .withMemoryLimits(new MemoryLimits(initialPages, maxPages))
        .withMemoryFactory(ByteArrayMemory::new)
        .withStart(false)
        .build();
  }

  /** Runs one build request against the directory {@code artifactRoot}; returns the response. */
  public byte[] call(byte[] request, Path artifactRoot, OutputStream log) {
    try (WasiSandbox.Binding ignored = wasi.bind(artifactRoot, log, log)) {
      int address = (int) alloc.apply(request.length)[0];
      instance.memory().write(address, request);
      long packed = build.apply(request.length)[0];
      return instance.memory().readBytes((int) (packed >>> 32), (int) packed);
    }
  }

  /** Readies the instance for another build: a full collection of what the last one left. */
  public void collect() {
    OutputStream none = OutputStream.nullOutputStream();
    try (WasiSandbox.Binding ignored = wasi.bind(emptyDirectory, none, none)) {
      collect.apply();
    }
  }

  public long memoryBytes() {
    return (long) instance.memory().pages() * PAGE_BYTES;
  }
}
