package dev.capstan.decryption;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * What a document may hold, checked before its data key is opened and before any rule is matched:
 * the work of decrypting it grows with its values and its nesting, and both are known from the
 * document as read, before anything in it is authenticated.
 */
final class DocumentBounds {
  /** Values (scalars, mappings and sequences, at any depth) in one document. */
  static final int MAX_VALUES = 20_000;

  /** Deeper documents are refused: SOPS documents are configuration, not deep data. */
  static final int MAX_DEPTH = 64;

  private DocumentBounds() {}

  /**
   * @throws DecryptionException when the branches hold more values, or nest deeper, than allowed
   */
  static void check(List<Object> branches) {
    // Iterative, so that the check itself cannot run out of stack on a deep document; counted as
    // values are met, so that a long sequence is refused before it is queued whole.
    Deque<Node> pending = new ArrayDeque<>();
    Counter values = new Counter();
    branches.forEach(b -> values.push(pending, new Node(b, 0)));
    while (!pending.isEmpty()) {
      Node node = pending.pop();
      if (node.depth() > MAX_DEPTH) {
        throw malformed("the document is nested deeper than " + MAX_DEPTH + " levels");
      }
      if (node.value() instanceof Map<?, ?> map) {
        map.values().forEach(v -> values.push(pending, new Node(v, node.depth() + 1)));
      } else if (node.value() instanceof List<?> list) {
        list.forEach(v -> values.push(pending, new Node(v, node.depth() + 1)));
      }
    }
  }

  private static final class Counter {
    private int count;

    void push(Deque<Node> pending, Node node) {
      if (++count > MAX_VALUES) {
        throw malformed("the document has more than " + MAX_VALUES + " values");
      }
      pending.push(node);
    }
  }

  private record Node(Object value, int depth) {}

  private static DecryptionException malformed(String message) {
    return new DecryptionException(DecryptionException.Problem.MALFORMED, message);
  }
}
