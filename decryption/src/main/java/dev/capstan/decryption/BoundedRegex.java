package dev.capstan.decryption;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A regular expression from a document's metadata, matched (found anywhere, as Go's regexp.Match
 * finds) within a {@link RegexBudget}: Java's engine backtracks, and a document must not be able to
 * stall a reconcile. Messages name the rule ({@code sops.encrypted_regex}), never the regex or the
 * key.
 */
final class BoundedRegex {
  private static final int MAX_LENGTH = 1024;

  private final String rule;
  private final Pattern pattern;

  /**
   * @param rule the metadata entry the regex comes from, e.g. {@code encrypted_regex}
   */
  BoundedRegex(String rule, String regex) {
    this.rule = rule;
    if (regex.length() > MAX_LENGTH) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "sops." + rule + " is longer than " + MAX_LENGTH + " characters");
    }
    try {
      this.pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "sops." + rule + " does not compile: " + e.getDescription());
    }
  }

  /**
   * Whether the regex matches within {@code text}, each character read charged to {@code budget}.
   */
  boolean find(String text, RegexBudget budget) {
    long allowance = budget.allowance();
    CountingChars chars = new CountingChars(text, new Steps(allowance));
    try {
      return pattern.matcher(chars).find();
    } catch (OutOfSteps e) {
      throw budget.exceeded(rule, allowance);
    } finally {
      budget.charge(chars.steps().taken);
    }
  }

  /** The steps of one evaluation, shared by the character sequences the matcher derives. */
  private static final class Steps {
    private final long allowed;
    private long taken;

    Steps(long allowed) {
      this.allowed = allowed;
    }

    void take() {
      if (++taken > allowed) {
        throw new OutOfSteps();
      }
    }
  }

  /** Thrown from within the matcher; turned into the budget's message at once. */
  private static final class OutOfSteps extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfSteps() {
      super(null, null, false, false);
    }
  }

  /** Characters that count each read and give up past the allowance. */
  private record CountingChars(String text, Steps steps) implements CharSequence {
    @Override
    public int length() {
      return text.length();
    }

    @Override
    public char charAt(int index) {
      steps.take();
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
