package dev.capstan.engine.webhook;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.eclipse.jetty.io.Content;

/**
 * Reads a request body of at most a given size without holding a thread while the client is slow:
 * when no bytes are ready it asks to be run again once they are, and returns. The result is handed
 * on on a thread that may block.
 */
final class BoundedBody implements Runnable {
  /** How reading a body ended. */
  sealed interface Result {}

  /** The whole body. */
  record Read(byte[] body) implements Result {}

  /** The body is larger than the limit; the rest is not read. */
  record TooLarge() implements Result {}

  /** The connection failed or timed out before the body was complete. */
  record Failed(Throwable failure) implements Result {}

  private final Content.Source source;
  private final int max;
  private final Consumer<Result> then;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

  private BoundedBody(Content.Source source, int max, Consumer<Result> then) {
    this.source = source;
    this.max = max;
    this.then = then;
  }

  static void read(Content.Source source, int max, Consumer<Result> then) {
    new BoundedBody(source, max, then).run();
  }

  @Override
  public void run() {
    while (true) {
      Content.Chunk chunk = source.read();
      if (chunk == null) {
        source.demand(this);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        then.accept(new Failed(chunk.getFailure()));
        return;
      }
      boolean fits = append(chunk.getByteBuffer());
      boolean last = chunk.isLast();
      chunk.release();
      if (!fits) {
        then.accept(new TooLarge());
        return;
      }
      if (last) {
        then.accept(new Read(buffer.toByteArray()));
        return;
      }
    }
  }

  private boolean append(ByteBuffer bytes) {
    if (buffer.size() + (long) bytes.remaining() > max) {
      return false;
    }
    byte[] copy = new byte[bytes.remaining()];
    bytes.get(copy);
    buffer.write(copy, 0, copy.length);
    return true;
  }
}
