package dev.capstan.source.oci;

import dev.capstan.source.core.BoundedBody;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
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
    return BoundedBody.readAll(
        in,
        limit,
        () ->
            new SourceException(
                FailureReason.OCI_PULL_FAILED, what + " is larger than " + limit + " bytes"));
  }
}
