package dev.capstan.source.oci;

/** Text from a registry or an archive made fit for a message: no control characters, short. */
public final class Safe {
  static final int MAX = 200;

  private Safe() {}

  public static String text(String value) {
    if (value == null) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    value
        .codePoints()
        .limit(MAX)
        .forEach(
            c ->
                out.appendCodePoint(
                    Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                        ? ' '
                        : c));
    return value.codePointCount(0, value.length()) > MAX ? out + "…" : out.toString();
  }
}
