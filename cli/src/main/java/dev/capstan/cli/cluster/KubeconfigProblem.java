package dev.capstan.cli.cluster;

import dev.capstan.applier.ClusterErrors;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * No usable kubeconfig, said in one line. For a file the client library could not read: the
 * innermost cause's first line, and where in the file when the YAML parser said so. The parser's
 * own message spans several lines and quotes the file, which can hold a token or a key: that text
 * is never shown.
 */
public final class KubeconfigProblem extends RuntimeException {

  private static final Pattern WHERE = Pattern.compile("line (\\d+), column (\\d+)");

  KubeconfigProblem(String message) {
    super(message, null, false, false);
  }

  /** The problem of the kubeconfig {@code which} that failed to read with {@code e}. */
  static KubeconfigProblem unreadable(Object which, Throwable e) {
    return new KubeconfigProblem("cannot read the kubeconfig " + which + ": " + describe(e));
  }

  private static String describe(Throwable e) {
    Throwable root = ClusterErrors.rootCause(e);
    if (root instanceof NoSuchFileException) {
      return "no such file";
    }
    if (root instanceof AccessDeniedException) {
      return "permission denied";
    }
    String message =
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    String first = message.lines().findFirst().orElse(message).strip();
    Matcher where = WHERE.matcher(message);
    return where.find()
        ? first + " (line " + where.group(1) + ", column " + where.group(2) + ")"
        : first;
  }
}
