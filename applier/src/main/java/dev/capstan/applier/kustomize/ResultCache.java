package dev.capstan.applier.kustomize;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The answers for builds whose inputs were seen before: the artifact (by digest), the path and
 * every build-affecting field and variable, all in the request. An unchanged reconcile builds
 * nothing. Keys are digests (a request may carry Secret values); least recently used answers are
 * dropped past a byte budget.
 */
final class ResultCache {
  private final long budgetBytes;
  private final Map<ByteBuffer, byte[]> answers = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  ResultCache(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  static ByteBuffer key(String artifactDigest, String root, byte[] request) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(artifactDigest.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(root.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(request);
      return ByteBuffer.wrap(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  synchronized Optional<byte[]> get(ByteBuffer key) {
    return Optional.ofNullable(answers.get(key));
  }

  synchronized void put(ByteBuffer key, byte[] answer) {
    if (answer.length > budgetBytes) {
      return;
    }
    byte[] previous = answers.put(key, answer);
    bytes += answer.length - (previous == null ? 0 : previous.length);
    Iterator<byte[]> eldest = answers.values().iterator();
    while (bytes > budgetBytes && eldest.hasNext()) {
      bytes -= eldest.next().length;
      eldest.remove();
    }
  }
}
