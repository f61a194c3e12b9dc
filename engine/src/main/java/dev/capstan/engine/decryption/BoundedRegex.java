package dev.capstan.engine.decryption;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A regular expression from a document's metadata, matched (found anywhere, as Go's regexp.Match
 * finds) within a bounded number of steps: Java's engine backtracks, and a document must not be
 * able to stall a reconcile.
 */
final class BoundedRegex {
  private static final int MAX_LENGTH = 1024;
  private static final long MAX_STEPS = 1_000_000;

  private final Pattern pattern;

  BoundedRegex(String regex) {
    if (regex.length() > MAX_LENGTH) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "a regex in the sops metadata is longer than " + MAX_LENGTH + " characters");
    }
    try {
      this.pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "a regex in the sops metadata does not compile: " + e.getDescription());
    }
  }

  boolean find(String text) {
    return pattern.matcher(new CountingChars(text, new long[] {0})).find();
  }

  /** Characters that count each read and give up past the budget. */
  private record CountingChars(String text, long[] steps) implements CharSequence {
    @Override
    public int length() {
      return text.length();
    }

    @Override
    public char charAt(int index) {
      if (++steps[0] > MAX_STEPS) {
        throw new DecryptionException(
            DecryptionException.Problem.MALFORMED,
            "a regex in the sops metadata takes too long to match");
      }
      return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new CountingChars(text.substring(start, end), steps);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
