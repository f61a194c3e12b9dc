package dev.capstan.source.git.verify;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevTag;

/** The bytes a Git commit's or tag's signature covers: the object without its signature. */
public final class SignedObjects {

  private static final byte[] GPGSIG = "gpgsig ".getBytes(StandardCharsets.US_ASCII);

  private SignedObjects() {}

  /** The commit's raw object with its {@code gpgsig} header (and continuation lines) removed. */
  static byte[] payload(RevCommit commit) {
    byte[] raw = commit.getRawBuffer();
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length);
    int pos = 0;
    boolean inHeaders = true;
    boolean skipping = false;
    while (pos < raw.length) {
      int end = lineEnd(raw, pos);
      if (inHeaders && end - pos == 1) {
        inHeaders = false; // the blank line before the message
        skipping = false;
      } else if (inHeaders && skipping && raw[pos] == ' ') {
        pos = end;
        continue;
      } else if (inHeaders) {
        skipping = startsWith(raw, pos, GPGSIG);
      }
      if (!skipping) {
        out.write(raw, pos, end - pos);
      }
      pos = end;
    }
    return out.toByteArray();
  }

  /** The tag's raw object up to the signature appended to its message. */
  static byte[] payload(RevTag tag) {
    byte[] raw = tag.getRawBuffer();
    byte[] sig = tag.getRawGpgSignature();
    if (sig == null || sig.length > raw.length) {
      return raw;
    }
    return Arrays.copyOf(raw, raw.length - sig.length);
  }

  private static int lineEnd(byte[] raw, int from) {
    for (int i = from; i < raw.length; i++) {
      if (raw[i] == '\n') {
        return i + 1;
      }
    }
    return raw.length;
  }

  private static boolean startsWith(byte[] raw, int at, byte[] prefix) {
    return raw.length - at >= prefix.length
        && Arrays.equals(raw, at, at + prefix.length, prefix, 0, prefix.length);
  }
}
