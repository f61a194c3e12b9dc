package dev.capstan.kustomize.chart;

/**
 * White space as Go's {@code unicode.IsSpace} knows it, which {@code strings.TrimSpace} trims:
 * Java's {@link String#strip()} differs (it keeps a no-break space and trims U+001C to U+001F), and
 * {@code helm template}'s output must be matched byte for byte.
 */
final class GoSpace {
  private GoSpace() {}

  static boolean is(char c) {
    return switch (c) {
      case '\t', '\n', '\u000B', '\f', '\r', ' ', '\u0085', '\u00A0' -> true;
      default ->
          c > '\u00FF'
              && switch (Character.getType(c)) {
                case Character.SPACE_SEPARATOR,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR ->
                    true;
                default -> false;
              };
    };
  }

  /** {@code text} without the white space at its ends, as {@code strings.TrimSpace} gives it. */
  static String trim(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && is(text.charAt(start))) {
      start++;
    }
    while (end > start && is(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(start, end);
  }
}
