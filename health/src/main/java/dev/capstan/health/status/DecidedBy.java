package dev.capstan.health.status;

/**
 * Which rule decided a {@link ResourceStatus}: a built-in CEL entry, a user's {@code
 * healthCheckExprs} entry, a kstatus rule, a step of the generic layer for kinds nobody wrote a
 * rule for, or nothing (a status made outside the evaluator, such as NotFound).
 */
public sealed interface DecidedBy {

  /** Short text for messages, e.g. {@code built-in CEL check cert-manager.io/*&#47;Certificate}. */
  String describe();

  /** The kind of rule, for machine-readable output: builtin, user, kstatus, generic, none. */
  String source();

  /** The rule within its source: entry label, kstatus rule, or generic step. */
  String rule();

  /** The built-in library's entry for the kind. */
  record BuiltinCel(String entry) implements DecidedBy {
    @Override
    public String describe() {
      return "built-in CEL check " + entry;
    }

    @Override
    public String source() {
      return "builtin";
    }

    @Override
    public String rule() {
      return entry;
    }
  }

  /**
   * A built-in entry said Current, but a sign the generic layer reads (a condition, a condition's
   * generation, a status phase) says otherwise, and decided.
   */
  record HeldBack(String entry, DecidedBy by) implements DecidedBy {
    @Override
    public String describe() {
      return by.describe() + ", over built-in CEL check " + entry;
    }

    @Override
    public String source() {
      return by.source();
    }

    @Override
    public String rule() {
      return by.rule() + " (over built-in " + entry + ")";
    }
  }

  /** A user's {@code healthCheckExprs} entry. */
  record UserCel(String entry) implements DecidedBy {
    @Override
    public String describe() {
      return "healthCheckExprs entry " + entry;
    }

    @Override
    public String source() {
      return "user";
    }

    @Override
    public String rule() {
      return entry;
    }
  }

  /** A kstatus rule: one of its top-level steps or the rule of a built-in kind. */
  record Kstatus(KstatusRule step, String detail) implements DecidedBy {
    public Kstatus {
      detail = detail == null ? "" : detail;
    }

    @Override
    public String describe() {
      return "kstatus " + rule();
    }

    @Override
    public String source() {
      return "kstatus";
    }

    @Override
    public String rule() {
      return detail.isEmpty() ? step.label() : step.label() + " " + detail;
    }
  }

  /** A step of the generic layer, for custom resources without a rule of their own. */
  record Generic(GenericStep step) implements DecidedBy {
    @Override
    public String describe() {
      return "generic " + step.label();
    }

    @Override
    public String source() {
      return "generic";
    }

    @Override
    public String rule() {
      return step.label();
    }
  }

  /** The object could not be read, or its status was made outside the evaluator. */
  record None(String why) implements DecidedBy {
    public None {
      why = why == null ? "" : why;
    }

    @Override
    public String describe() {
      return why.isEmpty() ? "no rule" : why;
    }

    @Override
    public String source() {
      return "none";
    }

    @Override
    public String rule() {
      return why;
    }
  }

  /** The generic layer's steps, one shared instance each (records are immutable). */
  static DecidedBy generic(GenericStep step) {
    return Shared.GENERIC[step.ordinal()];
  }

  /** The kstatus steps that are not the rule of a kind, one shared instance each. */
  static DecidedBy kstatus(KstatusRule step) {
    return Shared.KSTATUS[step.ordinal()];
  }

  /** Shared instances, so that attributing a status allocates nothing. */
  final class Shared {
    private static final DecidedBy[] GENERIC = new DecidedBy[GenericStep.values().length];
    private static final DecidedBy[] KSTATUS = new DecidedBy[KstatusRule.values().length];

    static {
      for (GenericStep step : GenericStep.values()) {
        GENERIC[step.ordinal()] = new Generic(step);
      }
      for (KstatusRule step : KstatusRule.values()) {
        KSTATUS[step.ordinal()] = new Kstatus(step, "");
      }
    }

    private Shared() {}
  }

  /** The steps of the kstatus computation that can decide. */
  enum KstatusRule {
    DELETION("deletion"),
    GENERATION("observedGeneration"),
    STANDARD_CONDITIONS("Reconciling/Stalled condition"),
    KIND("rule for"),
    READY_CONDITION("Ready condition");

    private final String label;

    KstatusRule(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** The steps of the generic layer, tried in this order. */
  enum GenericStep {
    CONDITIONS("conditions"),
    OBSERVED_GENERATION("observedGeneration"),
    NEWER_REVISION("newer revision"),
    STATUS_VOCABULARY("status vocabulary"),
    DEFAULT("kstatus default");

    private final String label;

    GenericStep(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }
}
