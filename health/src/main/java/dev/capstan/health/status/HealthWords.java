package dev.capstan.health.status;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The words operators use for health in status values and condition reasons, compared after
 * lower-casing and dropping spaces, dashes and underscores ({@code CrashLoopBackOff}, {@code
 * crash-loop-back-off} and {@code CRASH_LOOP_BACK_OFF} are one word).
 */
final class HealthWords {
  private static final Set<String> HEALTHY =
      Set.of(
          "running",
          "ready",
          "succeeded",
          "success",
          "successful",
          "active",
          "healthy",
          "bound",
          "available",
          "complete",
          "completed",
          "deployed",
          "established",
          "green",
          "ok",
          "online",
          "synced",
          "valid",
          "provisioned",
          "installed",
          "connected",
          "done",
          "finished",
          "up",
          "created",
          "initialized",
          "reconciled",
          "exists",
          "accepted",
          "enabled",
          "released",
          "published",
          "configured",
          "passed",
          "verified",
          "inservice",
          "uptodate",
          "healthok");

  private static final Set<String> FAILED =
      Set.of(
          "failed",
          "failure",
          "error",
          "errored",
          "degraded",
          "unhealthy",
          "crashloopbackoff",
          "red",
          "invalid",
          "rejected",
          "aborted",
          "lost",
          "broken",
          "warning",
          "critical",
          "down",
          "offline",
          "denied",
          "expired",
          "healtherr");

  private static final Set<String> PROGRESSING =
      Set.of(
          "pending",
          "provisioning",
          "progressing",
          "creating",
          "updating",
          "initializing",
          "reconciling",
          "deploying",
          "installing",
          "upgrading",
          "starting",
          "scaling",
          "waiting",
          "scheduling",
          "scheduled",
          "restarting",
          "migrating",
          "syncing",
          "applying",
          "building",
          "queued",
          "inprogress",
          "new",
          "init",
          "unknown",
          "yellow",
          "notready",
          "deleting",
          "terminating",
          "rollingupdate",
          "outofdate",
          "processing",
          "resizing",
          "unready",
          "notstarted",
          "unavailable");

  /**
   * Reasons that name a failure rather than a wait: besides errors, a spec the controller rejects
   * (invalid, unsupported), something it needs that is not there (NotFound, Missing: a reference to
   * fix, not a step of the rollout) and an operation it refuses (NotAllowed, Refused).
   */
  private static final Pattern FAILURE_REASON =
      Pattern.compile(
          "fail|error|invalid|denied|rejected|degraded|unhealthy|crashloop|backoff|conflict"
              + "|abort|exceeded|timeout|timedout|forbidden|unauthori[sz]ed|unschedulable"
              + "|misconfigur|notsupported|unsupported|notfound|missing|notallowed|disallowed"
              + "|notpermitted|refused|prohibited");

  /**
   * Reasons that say the controller has stopped trying: a terminal or permanent error, retries or a
   * backoff limit used up. Unlike a failure reason, which may name an error the controller retries,
   * these say that nothing changes until someone changes the spec.
   */
  private static final Pattern TERMINAL_REASON =
      Pattern.compile(
          "terminal|permanent|unrecoverable|nonretr|notretr|noretr|retriesexhausted|retrylimit"
              + "|maxretr|maxrestarts|backofflimit|gaveup|giveup|givenup");

  /**
   * Messages in which the controller says it is waiting for something it will see through: a
   * dependency, a rollout, another resource becoming ready, a step not done yet or still under way,
   * or that it will try again.
   */
  private static final Pattern WAITING_MESSAGE =
      Pattern.compile(
          "(?i)\\b(waiting (for|on|until)|waits? for|to become (ready|available)"
              + "|not (\\w+ )?yet|still (being \\w+|(?!fail|err|crash)\\w+ing)|in progress"
              + "|will (be )?retr(y|ied)|retrying|requeu(e|ed|ing))\\b");

  /**
   * Stems every terminal reason contains, checked on the raw reason first: most reasons hold none,
   * and then nothing is normalised.
   */
  private static final String[] TERMINAL_STEMS = {
    "ermina", "ermanent", "ecoverable", "etr", "estart", "off", "ave", "ive"
  };

  private static final String[] RETRYING_STEMS = {"etry", "equeue"};

  private static final Pattern FAILURE_MESSAGE =
      Pattern.compile("(?i)\\b(fail(ed|ure|s)?|errors?|invalid|denied|forbidden)\\b");

  private HealthWords() {}

  static String normalize(String word) {
    StringBuilder out = new StringBuilder(Math.min(word.length(), 80));
    for (int i = 0; i < word.length() && out.length() < 80; i++) {
      char c = word.charAt(i);
      if (c != ' ' && c != '-' && c != '_' && c != '.') {
        out.append(Character.toLowerCase(c));
      }
    }
    return out.toString().toLowerCase(Locale.ROOT);
  }

  /**
   * The signal of a status value such as {@code status.phase}; null when the word is not one this
   * vocabulary knows (an unknown word is no sign either way).
   */
  static Signal ofValue(String value) {
    String word = normalize(value);
    if (word.isEmpty()) {
      return null;
    }
    if (FAILED.contains(word) || word.endsWith("failed") || word.endsWith("error")) {
      return Signal.FAILED;
    }
    if (PROGRESSING.contains(word) || startsWithProgressWord(value)) {
      return Signal.PROGRESSING;
    }
    return HEALTHY.contains(word) ? Signal.HEALTHY : null;
  }

  /**
   * Whether the first word of a value (split at camel case, spaces, dashes, underscores) is a verb
   * in progress other than "running": ApplyingChanges, MigratingData, Rebalancing.
   */
  private static boolean startsWithProgressWord(String value) {
    boolean camel = !value.equals(value.toUpperCase(Locale.ROOT));
    int end = 1;
    while (end < value.length() && end < 80) {
      char c = value.charAt(end);
      if ((camel && Character.isUpperCase(c)) || c == ' ' || c == '-' || c == '_') {
        break;
      }
      end++;
    }
    String first = value.substring(0, Math.min(end, value.length())).toLowerCase(Locale.ROOT);
    return first.length() > 4
        && first.endsWith("ing")
        && !first.equals("running")
        && !first.equals("warning")
        && !first.equals("missing");
  }

  /** Whether a condition reason names a failure (Failed, ReconcileError, ErrRegister…). */
  static boolean isFailureReason(String reason) {
    String word = normalize(reason);
    return FAILURE_REASON.matcher(word).find() || word.startsWith("err");
  }

  /** Whether a condition reason says the controller will not try again (Terminal, …). */
  static boolean isTerminalReason(String reason) {
    return containsAny(reason, TERMINAL_STEMS) && TERMINAL_REASON.matcher(normalize(reason)).find();
  }

  /**
   * Whether a condition reason says the controller is trying again (Retrying, WillRetry, Requeued):
   * the failure it retries is a step under way, not its end.
   */
  static boolean saysRetrying(String reason) {
    if (!containsAny(reason, RETRYING_STEMS)) {
      return false;
    }
    String word = normalize(reason);
    return word.equals("retrying")
        || word.equals("willretry")
        || word.equals("requeued")
        || word.endsWith("retrying");
  }

  /** Whether a free-text message says the controller is waiting for something. */
  static boolean mentionsWaiting(String message) {
    return !message.isEmpty() && WAITING_MESSAGE.matcher(message).find();
  }

  /**
   * Whether the first characters of the text hold one of the stems, ignoring case, without
   * allocating. Only the start is read: {@link #normalize} keeps no more of a word than that.
   */
  private static boolean containsAny(String text, String[] stems) {
    int end = Math.min(text.length(), 128);
    for (String stem : stems) {
      for (int i = 0; i + stem.length() <= end; i++) {
        if (text.regionMatches(true, i, stem, 0, stem.length())) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a free-text message says that something failed or errored. */
  static boolean mentionsFailure(String message) {
    return FAILURE_MESSAGE.matcher(message).find();
  }
}
