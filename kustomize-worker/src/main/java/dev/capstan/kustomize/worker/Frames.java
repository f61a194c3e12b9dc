package dev.capstan.kustomize.worker;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * The worker's framing (see go/frame.go): a 12-byte header, the body's length (big-endian 32 bits)
 * and the request's id (big-endian 64 bits), then the body. A frame cut short by a worker that died
 * is an {@link EOFException}, never an answer.
 */
final class Frames {
  static final int HEADER = 12;

  /** One frame read. */
  record Frame(long id, byte[] body) {}

  /** A frame whose header announces more than the reader accepts; the body is left unread. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(long size) {
      super("a frame of " + size + " bytes");
    }
  }

  private Frames() {}

  static void write(OutputStream out, long id, byte[] body) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(HEADER);
    header.putInt(body.length).putLong(id);
    out.write(header.array());
    out.write(body);
    out.flush();
  }

  /** A frame that found no room to be read in time; the body is left unread. */
  static final class NoRoom extends IOException {
    private static final long serialVersionUID = 1L;
    private final long size;

    NoRoom(long size) {
      super("no room for a frame of " + size + " bytes");
      this.size = size;
    }

    long size() {
      return size;
    }
  }

  static Frame read(DataInputStream in, long maxBody) throws IOException {
    try {
      return read(in, maxBody, AnswerRoom.UNBOUNDED, Long.MAX_VALUE);
    } catch (InterruptedException e) {
      throw new IllegalStateException("unbounded room never waits", e);
    }
  }

  /**
   * Reads a frame whose body must find room first (waiting at most until {@code deadlineNanos});
   * the room stays taken only if the frame is returned.
   */
  static Frame read(DataInputStream in, long maxBody, AnswerRoom room, long deadlineNanos)
      throws IOException, InterruptedException {
    byte[] header = new byte[HEADER];
    in.readFully(header);
    ByteBuffer fields = ByteBuffer.wrap(header);
    long size = Integer.toUnsignedLong(fields.getInt());
    long id = fields.getLong();
    if (size > maxBody) {
      throw new TooLarge(size);
    }
    if (!room.take(size, deadlineNanos)) {
      throw new NoRoom(size);
    }
    byte[] body = new byte[(int) size];
    try {
      in.readFully(body);
    } catch (IOException e) {
      room.give(size);
      throw e;
    }
    return new Frame(id, body);
  }
}
