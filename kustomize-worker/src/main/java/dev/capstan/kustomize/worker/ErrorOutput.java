package dev.capstan.kustomize.worker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Drains a worker's standard error on a thread of its own, keeping only the last bytes. */
final class ErrorOutput {
  private static final int KEEP = 16 * 1024;

  private final byte[] ring = new byte[KEEP];
  private long written;
  private final Thread drainer;

  ErrorOutput(InputStream stream, String name) {
    drainer = new Thread(() -> drain(stream), name);
    drainer.setDaemon(true);
    drainer.start();
  }

  private void drain(InputStream stream) {
    byte[] buffer = new byte[4096];
    try (stream) {
      for (int n; (n = stream.read(buffer)) > 0; ) {
        append(buffer, n);
      }
    } catch (IOException ignored) {
      // the worker is gone
    }
  }

  private synchronized void append(byte[] buffer, int n) {
    for (int i = 0; i < n; i++) {
      ring[(int) (written++ % KEEP)] = buffer[i];
    }
  }

  /** What was kept, once the stream has ended (or after {@code waitMillis}). */
  String text(long waitMillis) {
    try {
      drainer.join(waitMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      int size = (int) Math.min(written, KEEP);
      byte[] out = new byte[size];
      long start = written - size;
      for (int i = 0; i < size; i++) {
        out[i] = ring[(int) ((start + i) % KEEP)];
      }
      return new String(out, StandardCharsets.UTF_8);
    }
  }
}
