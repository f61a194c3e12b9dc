package dev.capstan.kustomize.wasm;

import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The module as instances restored from the memory image need it: the compiled module's metadata
 * without its data segments (10 MB that the image overwrites anyway, and that take most of the time
 * the module takes to load). Made at build time by {@link ImageMaker}.
 */
final class LeanModule {
  static final String RESOURCE = "KustomizeModule.lean";
  private static final int DATA_SECTION = 11;

  private LeanModule() {}

  /** The lean module, parsed once. */
  static WasmModule load() {
    return Holder.MODULE;
  }

  private static final class Holder {
    static final WasmModule MODULE = parse();

    private static WasmModule parse() {
      try (InputStream in = LeanModule.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException(
              RESOURCE + " is missing: the module was built without its image");
        }
        return Parser.parse(in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The binary module {@code wasm} with an empty data section in place of its own. */
  static byte[] withoutData(byte[] wasm) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(wasm.length);
    out.write(wasm, 0, 8); // magic and version
    int i = 8;
    while (i < wasm.length) {
      int id = wasm[i++] & 0xff;
      long size = 0;
      int shift = 0;
      int start = i;
      byte b;
      do {
        b = wasm[i++];
        size |= (long) (b & 0x7f) << shift;
        shift += 7;
      } while ((b & 0x80) != 0);
      if (id == DATA_SECTION) {
        out.write(new byte[] {DATA_SECTION, 1, 0}, 0, 3); // a section of one byte: zero segments
      } else {
        out.write(id);
        out.write(wasm, start, (int) (i - start + size));
      }
      i += (int) size;
    }
    return out.toByteArray();
  }
}
