package dev.capstan.decryption;

/**
 * The steps (characters read) that the regexes of SOPS metadata may take, as one budget for a
 * decryptor (one build), from which each document draws a budget of its own, from which each
 * evaluation draws at most {@link #PER_EVALUATION}. A step costs between about 3 and 80 ns in
 * Java's backtracking engine, so a document's whole budget is spent in well under a second, and a
 * build's in a few seconds, whatever its documents hold.
 */
final class RegexBudget {
  /** Steps one match of one key may take: far more than any regex SOPS users write. */
  static final long PER_EVALUATION = 1_000_000;

  /** Steps all matches over one document may take. */
  static final long PER_DOCUMENT = 10_000_000;

  /** Steps all documents of one decryptor (one build) may take. */
  static final long PER_DECRYPTOR = 40_000_000;

  /** What a budget bounds, for the message when it runs out. */
  private enum Scope {
    DOCUMENT("the document's keys"),
    DECRYPTOR("this build's documents");

    private final String over;

    Scope(String over) {
      this.over = over;
    }
  }

  private final RegexBudget parent;
  private final Scope scope;
  private final long limit;
  private long used;

  private RegexBudget(RegexBudget parent, Scope scope, long limit) {
    this.parent = parent;
    this.scope = scope;
    this.limit = limit;
  }

  /** The budget of one decryptor: every document it decrypts draws on it. */
  static RegexBudget forDecryptor() {
    return new RegexBudget(null, Scope.DECRYPTOR, PER_DECRYPTOR);
  }

  /** A document's budget, drawn from this one. */
  RegexBudget forDocument() {
    return new RegexBudget(this, Scope.DOCUMENT, PER_DOCUMENT);
  }

  /** The steps the next evaluation may take: the least of what every budget up the chain has. */
  long allowance() {
    long left = Math.min(PER_EVALUATION, limit - used);
    return parent == null ? left : Math.min(left, parent.allowance());
  }

  /** Charges {@code steps} to this budget and every one it draws from. */
  void charge(long steps) {
    used += steps;
    if (parent != null) {
      parent.charge(steps);
    }
  }

  /**
   * The failure of an evaluation of {@code rule} that ran out of its {@code allowance}: the
   * evaluation's own bound, or the budget that was nearest to empty.
   */
  DecryptionException exceeded(String rule, long allowance) {
    String message;
    if (allowance >= PER_EVALUATION) {
      message =
          "sops."
              + rule
              + " takes more than "
              + PER_EVALUATION
              + " steps to match one key; SOPS matches its rules in linear time: simplify the"
              + " regex";
    } else {
      RegexBudget spent = nearestEmpty();
      message =
          "the regexes of the sops metadata take more than "
              + spent.limit
              + " steps over "
              + spent.scope.over
              + " (at sops."
              + rule
              + "); simplify them";
    }
    return new DecryptionException(DecryptionException.Problem.MALFORMED, message);
  }

  private RegexBudget nearestEmpty() {
    if (parent == null) {
      return this;
    }
    RegexBudget up = parent.nearestEmpty();
    return up.limit - up.used < limit - used ? up : this;
  }
}
