package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads of what a registry sends, never more than a limit. */
final class Bounded {
  private Bounded() {}

  /**
   * Reads all of {@code in}, failing once more than {@code limit} bytes arrive.
   *
   * @param what names the body in the message
   */
  static byte[] read(InputStream in, int limit, String what) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int n;
    while ((n = in.read(buffer)) > 0) {
      if (out.size() + n > limit) {
        throw new SourceException(
            FailureReason.OCI_PULL_FAILED, what + " is larger than " + limit + " bytes");
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }
}
