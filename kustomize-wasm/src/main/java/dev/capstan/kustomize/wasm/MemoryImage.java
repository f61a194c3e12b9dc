package dev.capstan.kustomize.wasm;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Optional;

/**
 * The state of an instance whose Go runtime has started and prepared what every build needs: its
 * linear memory (pages that are not all zero), its globals and its monotonic clock. Made once, at
 * build time ({@link ImageMaker}); every instance starts from it instead of starting Go, which
 * takes seconds. Go keeps all its state in these (it runs one thread and holds no host resources
 * between calls), so a restored instance is the one that was saved.
 */
record MemoryImage(int pages, long monotonicNanos, long[] globals, int[] pageIndexes, byte[] data) {
  static final String RESOURCE = "KustomizeModule.image";
  private static final int MAGIC = 0x434b5349; // "CKSI"
  private static final int PAGE = 65536;

  static MemoryImage capture(Instance instance, long monotonicNanos) {
    Memory memory = instance.memory();
    long[] globals = new long[instance.globalCount()];
    for (int i = 0; i < globals.length; i++) {
      globals[i] = instance.global(i).getValue();
    }
    int pages = memory.pages();
    int[] indexes = new int[pages];
    int used = 0;
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    for (int page = 0; page < pages; page++) {
      byte[] bytes = memory.readBytes(page * PAGE, PAGE);
      if (!isZero(bytes)) {
        data.writeBytes(bytes);
        indexes[used++] = page;
      }
    }
    return new MemoryImage(pages, monotonicNanos, globals, Arrays.copyOf(indexes, used), data.toByteArray());
  }

  /** Puts the saved state into a new instance of the same module (its start function not run). */
  void restore(Instance instance) {
    Memory memory = instance.memory();
    int missing = pages - memory.pages();
    if (missing > 0 && memory.grow(missing) < 0) {
      throw new IllegalStateException("the memory limit is below the image's " + (pages / 16) + " MiB");
    }
    memory.fill((byte) 0, 0, pages * PAGE);
    for (int i = 0; i < pageIndexes.length; i++) {
      memory.write(pageIndexes[i] * PAGE, data, i * PAGE, PAGE);
    }
    for (int i = 0; i < globals.length; i++) {
      instance.global(i).setValue(globals[i]);
    }
  }

  void write(OutputStream out) throws IOException {
    DataOutputStream data = new DataOutputStream(new BufferedOutputStream(out));
    data.writeInt(MAGIC);
    data.writeInt(pages);
    data.writeLong(monotonicNanos);
    data.writeInt(globals.length);
    for (long g : globals) {
      data.writeLong(g);
    }
    data.writeInt(pageIndexes.length);
    for (int i : pageIndexes) {
      data.writeInt(i);
    }
    data.write(this.data);
    data.flush();
  }

  /** The image in the module's resources, if the build made one. */
  static Optional<MemoryImage> load() {
    InputStream resource = MemoryImage.class.getResourceAsStream(RESOURCE);
    if (resource == null) {
      return Optional.empty();
    }
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(resource, 1 << 16))) {
      if (in.readInt() != MAGIC) {
        throw new IllegalStateException(RESOURCE + " is not a memory image");
      }
      int pages = in.readInt();
      long monotonic = in.readLong();
      long[] globals = new long[in.readInt()];
      for (int i = 0; i < globals.length; i++) {
        globals[i] = in.readLong();
      }
      int[] indexes = new int[in.readInt()];
      for (int i = 0; i < indexes.length; i++) {
        indexes[i] = in.readInt();
      }
      byte[] data = new byte[indexes.length * PAGE];
      in.readFully(data);
      return Optional.of(new MemoryImage(pages, monotonic, globals, indexes, data));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }

  private static boolean isZero(byte[] bytes) {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }
}
