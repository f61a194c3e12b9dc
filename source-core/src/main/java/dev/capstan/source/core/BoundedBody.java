package dev.capstan.source.core;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Supplier;

/**
 * A body that fails once more than its bound has been read, whatever the server declared: a Helm
 * index streamed to its parser, or, through {@link #readAll}, a registry's manifest or the GitHub
 * API's answer read whole.
 */
public final class BoundedBody extends FilterInputStream {
  private final long max;
  private final Supplier<SourceException> tooLarge;
  private long read;

  /**
   * @param tooLarge the failure once more than {@code max} bytes have been read; each source words
   *     it
   */
  public BoundedBody(InputStream in, long max, Supplier<SourceException> tooLarge) {
    super(in);
    this.max = max;
    this.tooLarge = tooLarge;
  }

  /** All of {@code in}, failing with {@code tooLarge} once more than {@code max} bytes arrive. */
  public static byte[] readAll(InputStream in, long max, Supplier<SourceException> tooLarge)
      throws IOException {
    return new BoundedBody(in, max, tooLarge).readAllBytes();
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = in.read(buffer, offset, length);
    if (n > 0) {
      count(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = in.skip(n);
    count(skipped);
    return skipped;
  }

  private void count(long n) {
    read += n;
    if (read > max) {
      throw tooLarge.get();
    }
  }
}
