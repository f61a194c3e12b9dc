package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Commons Compress's tar reader with bounds on the headers it reads into memory whole, whatever
 * size they declare: a GNU long name or link name, a PAX header, the global PAX headers of the
 * layer together (they are applied to every later entry), and the number of headers one entry has.
 * A header declaring more than its bound is refused before a byte of it is read. (Release 1.28 of
 * the library has no such bound of its own; the maximum entry name length of its builders came
 * later.) The headers an entry may have are bounded in bytes by the {@link MeteredStream} beneath.
 */
final class HeaderBoundedTar extends TarArchiveInputStream {
  /** A name of {@link LayerUnpacker#MAX_NAME} characters in UTF-8, and its NUL. */
  static final int MAX_LONG_NAME_BYTES = 4 * LayerUnpacker.MAX_NAME + 1;

  static final int MAX_PAX_HEADER_BYTES = 1 << 20;

  /** Small: every entry after them gets a copy of each of their records. */
  static final int MAX_GLOBAL_PAX_BYTES = 8 << 10;

  /** A global and an entry's PAX header, a long name and a long link name, the entry: five. */
  static final int MAX_HEADERS_PER_ENTRY = 8;

  /** All the headers of one entry: the largest PAX header and ample room for the others. */
  static final long MAX_ENTRY_HEADER_BYTES = 2L * MAX_PAX_HEADER_BYTES;

  private final MeteredStream stream;
  private int depth;
  private TarArchiveEntry checked;
  private long globalPaxBytes;

  HeaderBoundedTar(MeteredStream stream) {
    super(stream);
    this.stream = stream;
  }

  /** The reader calls this again for each header an entry has before the entry itself. */
  @Override
  public TarArchiveEntry getNextEntry() throws IOException {
    if (depth >= MAX_HEADERS_PER_ENTRY) {
      throw layerFailed(
          "an entry of the layer has more than " + MAX_HEADERS_PER_ENTRY + " headers");
    }
    if (depth == 0) {
      stream.headersStart();
    }
    depth++;
    try {
      return super.getNextEntry();
    } finally {
      if (--depth == 0) {
        stream.headersEnd();
      }
    }
  }

  /** The reader reads a header's data through this method, so its size is checked first. */
  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    TarArchiveEntry entry = getCurrentEntry();
    if (entry != null && entry != checked) {
      checked = entry;
      checkHeaderSize(entry);
    }
    return super.read(buffer, offset, length);
  }

  private void checkHeaderSize(TarArchiveEntry entry) {
    long size = entry.getSize();
    if ((entry.isGNULongNameEntry() || entry.isGNULongLinkEntry()) && size > MAX_LONG_NAME_BYTES) {
      throw layerFailed(
          "an entry of the layer declares a GNU long name of "
              + size
              + " bytes, more than the limit of "
              + MAX_LONG_NAME_BYTES);
    }
    if (entry.isPaxHeader() && size > MAX_PAX_HEADER_BYTES) {
      throw layerFailed(
          "an entry of the layer declares a PAX header of "
              + size
              + " bytes, more than the limit of "
              + MAX_PAX_HEADER_BYTES);
    }
    if (entry.isGlobalPaxHeader()) {
      if (size > MAX_GLOBAL_PAX_BYTES - globalPaxBytes) {
        throw layerFailed(
            "the layer's global PAX headers are larger than "
                + MAX_GLOBAL_PAX_BYTES
                + " bytes together");
      }
      globalPaxBytes += size;
    }
  }

  private static SourceException layerFailed(String message) {
    return new SourceException(FailureReason.OCI_LAYER_FAILED, message);
  }
}
