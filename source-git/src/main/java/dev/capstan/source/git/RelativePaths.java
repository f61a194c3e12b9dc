package dev.capstan.source.git;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;

/**
 * Directory paths a GitRepository names inside an artifact ({@code spec.sparseCheckout}, {@code
 * spec.include[].fromPath} and {@code toPath}): relative, never climbing out.
 */
final class RelativePaths {

  private RelativePaths() {}

  /**
   * The path in the form {@code a/b} ({@code ""} for the root).
   *
   * @param field names the field in the message, e.g. {@code spec.include[0].toPath}
   * @throws SourceException {@link FailureReason#INVALID_SPEC} for an absolute path, a {@code ..}
   *     segment, a backslash or a control character
   */
  static String normalize(String path, String field) {
    if (path == null) {
      return "";
    }
    String p = path.strip();
    if (p.startsWith("/") || p.indexOf('\\') >= 0 || p.chars().anyMatch(Character::isISOControl)) {
      throw invalid(field, "must be a relative path");
    }
    StringBuilder out = new StringBuilder();
    for (String segment : p.split("/")) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        throw invalid(field, "must not contain '..'");
      }
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(segment);
    }
    return out.toString();
  }

  private static SourceException invalid(String field, String why) {
    return new SourceException(FailureReason.INVALID_SPEC, field + " " + why);
  }
}
