package dev.capstan.engine.conditions;

/**
 * The bound on a condition's message. A message may carry text from a build or an API server's
 * answer about many objects; what `kubectl get` shows and what is written on every status update
 * stays small.
 */
public final class ConditionMessages {
  /** At most this many characters, the cut marked with "..." at the end. */
  public static final int MAX_LENGTH = 4096;

  private ConditionMessages() {}

  /** {@code message} cut to {@link #MAX_LENGTH} characters, never inside a surrogate pair. */
  public static String bounded(String message) {
    if (message == null || message.length() <= MAX_LENGTH) {
      return message;
    }
    int end = MAX_LENGTH - 3;
    if (Character.isHighSurrogate(message.charAt(end - 1))) {
      end--;
    }
    return message.substring(0, end) + "...";
  }
}
