package dev.capstan.source.git;

import java.time.Instant;
import java.util.Objects;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * Who made a commit and what its message says in its first line, bounded: a commit comes from
 * whoever can push, so its text is cut to a length and rid of control characters before anyone
 * shows it. Escaping for a particular output (HTML, a terminal) is the shower's job.
 *
 * @param author the author's name
 * @param email the author's e-mail address
 * @param time when the author made it
 * @param subject the message's first line
 */
public record CommitSummary(
    String commitId, String author, String email, Instant time, String subject) {
  /** Characters kept of the subject; the rest is cut and marked with an ellipsis. */
  public static final int MAX_SUBJECT = 200;

  /** Characters kept of the author's name and of the address. */
  public static final int MAX_NAME = 100;

  public CommitSummary {
    Objects.requireNonNull(commitId, "commitId");
    author = bounded(author, MAX_NAME);
    email = bounded(email, MAX_NAME);
    subject = bounded(firstLine(subject), MAX_SUBJECT);
  }

  static CommitSummary of(RevCommit commit) {
    PersonIdent who = commit.getAuthorIdent();
    return new CommitSummary(
        commit.name(),
        who == null ? "" : who.getName(),
        who == null ? "" : who.getEmailAddress(),
        who == null ? null : who.getWhenAsInstant(),
        commit.getFullMessage());
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    String trimmed = message.strip();
    int end = trimmed.indexOf('\n');
    return end < 0 ? trimmed : trimmed.substring(0, end);
  }

  /** At most {@code max} characters, control and format characters replaced by spaces. */
  static String bounded(String text, int max) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(Math.min(text.length(), max + 1));
    int count = 0;
    for (int i = 0; i < text.length() && count < max; ) {
      int cp = text.codePointAt(i);
      int type = Character.getType(cp);
      boolean invisible =
          Character.isISOControl(cp)
              || type == Character.FORMAT
              || type == Character.LINE_SEPARATOR
              || type == Character.PARAGRAPH_SEPARATOR;
      out.appendCodePoint(invisible ? ' ' : cp);
      count++;
      i += Character.charCount(cp);
    }
    String result = out.toString().strip();
    return text.codePointCount(0, text.length()) > max ? result + "…" : result;
  }
}
