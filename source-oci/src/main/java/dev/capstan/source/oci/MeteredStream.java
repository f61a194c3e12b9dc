package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;

/**
 * The decompressed tar stream of a layer as the unpacker reads it. Every byte counts against the
 * unpack limit, whether it ends in a file, in a header or in an entry left out (a link's or a
 * device's body is decompressed all the same to reach the next entry), and every read checks the
 * pull's deadline. While the headers of one entry are read, their bytes are bounded as well: the
 * tar reader keeps some of them in memory (a sparse file's map, say) whatever they declare.
 */
final class MeteredStream extends FilterInputStream {
  private final long limit;
  private final long headerLimit;
  private final Clock clock;
  private final Instant deadline;
  private final byte[] skipped = new byte[8192];
  private long count;
  private long headersFrom = -1;

  MeteredStream(InputStream in, long limit, long headerLimit, Clock clock, Instant deadline) {
    super(in);
    this.limit = limit;
    this.headerLimit = headerLimit;
    this.clock = clock;
    this.deadline = deadline;
  }

  /** The headers of an entry are read from here on. */
  void headersStart() {
    headersFrom = count;
  }

  /** The entry's headers have been read. */
  void headersEnd() {
    headersFrom = -1;
  }

  @Override
  public int read() throws IOException {
    checkDeadline();
    int b = in.read();
    if (b >= 0) {
      consumed(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    checkDeadline();
    int n = in.read(buffer, offset, length);
    if (n > 0) {
      consumed(n);
    }
    return n;
  }

  /** Skipped bytes are decompressed too: read, so that they are counted and timed. */
  @Override
  public long skip(long n) throws IOException {
    long done = 0;
    while (done < n) {
      int read = read(skipped, 0, (int) Math.min(skipped.length, n - done));
      if (read < 0) {
        break;
      }
      done += read;
    }
    return done;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  private void consumed(int n) {
    count += n;
    if (count > limit) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "the layer decompresses to more than the size limit of " + limit + " bytes");
    }
    if (headersFrom >= 0 && count - headersFrom > headerLimit) {
      throw new SourceException(
          FailureReason.OCI_LAYER_FAILED,
          "the headers of an entry of the layer are larger than " + headerLimit + " bytes");
    }
  }

  private void checkDeadline() {
    if (clock.instant().isAfter(deadline)) {
      throw new SourceException(
          FailureReason.OCI_PULL_FAILED, "the pull timed out while unpacking the layer");
    }
  }
}
