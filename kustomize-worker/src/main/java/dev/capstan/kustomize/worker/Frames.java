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

  static Frame read(DataInputStream in, long maxBody) throws IOException {
    byte[] header = new byte[HEADER];
    in.readFully(header);
    ByteBuffer fields = ByteBuffer.wrap(header);
    long size = Integer.toUnsignedLong(fields.getInt());
    long id = fields.getLong();
    if (size > maxBody) {
      throw new TooLarge(size);
    }
    byte[] body = new byte[(int) size];
    in.readFully(body);
    return new Frame(id, body);
  }
}
