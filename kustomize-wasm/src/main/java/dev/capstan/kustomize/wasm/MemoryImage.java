package dev.capstan.kustomize.wasm;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * The state of an instance whose Go runtime has started and prepared what every build needs: its
 * linear memory (the pages that are not all zero), its globals and its monotonic clock. Made once,
 * at build time ({@link ImageMaker}); every instance starts from it instead of starting Go, which
 * takes seconds. Go keeps all its state in these (it runs one thread and holds no host resources
 * between calls), so a restored instance is the one that was saved.
 *
 * <p>Format: magic, page count, monotonic nanoseconds, globals (count, values), then for each page
 * that is not all zero its index and its 64 KiB, until index -1. Pages are read straight into the
 * instance's memory, so restoring holds no second copy of the image.
 */
final class MemoryImage {
  static final String RESOURCE = "KustomizeModule.image";
  private static final int MAGIC = 0x434b5349; // "CKSI"
  private static final int PAGE = 65536;

  private MemoryImage() {}

  /** Saves the instance's state; returns how many pages were not all zero. */
  static int write(Instance instance, long monotonicNanos, OutputStream out) throws IOException {
    Memory memory = instance.memory();
    DataOutputStream data = new DataOutputStream(new BufferedOutputStream(out));
    data.writeInt(MAGIC);
    data.writeInt(memory.pages());
    data.writeLong(monotonicNanos);
    data.writeInt(instance.globalCount());
    for (int i = 0; i < instance.globalCount(); i++) {
      data.writeLong(instance.global(i).getValue());
    }
    int written = 0;
    for (int page = 0; page < memory.pages(); page++) {
      byte[] bytes = memory.readBytes(page * PAGE, PAGE);
      if (!isZero(bytes)) {
        data.writeInt(page);
        data.write(bytes);
        written++;
      }
    }
    data.writeInt(-1);
    data.flush();
    return written;
  }

  /** The image's memory size and monotonic clock. */
  record Header(int pages, long monotonicNanos) {}

  /** The image's header, if the module has an image. */
  static Optional<Header> header() {
    try (DataInputStream in = open()) {
      return in == null ? Optional.empty() : Optional.of(new Header(in.readInt(), in.readLong()));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }

  /**
   * Puts the saved state into a new instance of the module (its start function not run), whose
   * memory should already have the image's size: growing it would copy it.
   */
  static void restore(Instance instance) {
    try (DataInputStream in = open()) {
      Memory memory = instance.memory();
      int pages = in.readInt();
      in.readLong();
      int missing = pages - memory.pages();
      if (missing > 0 && memory.grow(missing) < 0) {
        throw new IllegalStateException(
            "the memory limit is below the image's " + (pages / 16) + " MiB");
      }
      int globals = in.readInt();
      for (int i = 0; i < globals; i++) {
        instance.global(i).setValue(in.readLong());
      }
      byte[] page = new byte[PAGE];
      for (int index = in.readInt(); index >= 0; index = in.readInt()) {
        in.readFully(page);
        memory.write(index * PAGE, page);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }

  private static DataInputStream open() throws IOException {
    InputStream resource = MemoryImage.class.getResourceAsStream(RESOURCE);
    if (resource == null) {
      return null;
    }
    DataInputStream in = new DataInputStream(new BufferedInputStream(resource, PAGE));
    if (in.readInt() != MAGIC) {
      in.close();
      throw new IllegalStateException(RESOURCE + " is not a memory image");
    }
    return in;
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
