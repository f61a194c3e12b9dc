package dev.capstan.engine.helmrelease;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How yaml.v2 writes a scalar: a string plain, single-quoted, double-quoted or literal (a string
 * yaml.v2 would read back as another type is double-quoted, then libyaml's emitter refuses the
 * styles the characters do not allow), a number as Go writes a float64 read back as YAML.
 */
final class GoYamlScalars {
  /** The styles of a scalar. */
  enum Style {
    PLAIN,
    SINGLE,
    DOUBLE,
    LITERAL
  }

  private static final Set<String> RESOLVED =
      Set.of(
          "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no",
          "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "", "~", "null", "Null",
          "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
          "-.inf", "-.Inf", "-.INF");

  private static final Pattern DOT_FLOAT = Pattern.compile("\\.[0-9]+([eE][-+]?[0-9]+)?");
  private static final Pattern YAML_FLOAT =
      Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  private static final Pattern BASE60 =
      Pattern.compile("[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?");
  private static final Pattern GO_INT =
      Pattern.compile("([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)");
  private static final Pattern TIMESTAMP =
      Pattern.compile(
          "([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"
              + "(?:(?:[Tt]([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:\\.[0-9]+)?"
              + "(?:Z|[-+][0-9]{2}:[0-9]{2}))"
              + "|(?: ([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:\\.[0-9]+)?))?");
  private static final BigInteger UINT64_MAX =
      BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);

  private GoYamlScalars() {}

  /** The text of a scalar that is not a string: null, a boolean or a number. */
  static String plainOf(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Boolean b) {
      return b.toString();
    }
    if (value instanceof Number n) {
      return number(n.doubleValue());
    }
    return String.valueOf(value);
  }

  /** A float64 as Go's JSON writes it, then as yaml.v2 writes what it reads back from that. */
  static String number(double value) {
    if (value == 0) {
      return "0";
    }
    if (Double.isFinite(value) && value == Math.rint(value) && Math.abs(value) < 1e21) {
      String text = new BigDecimal(Double.toString(value)).toBigInteger().toString();
      BigInteger integer = new BigInteger(text);
      if (integer.compareTo(INT64_MIN) >= 0 && integer.compareTo(UINT64_MAX) <= 0) {
        return text;
      }
    }
    return GoYaml.formatG(value);
  }

  /** The style yaml.v2 writes {@code text} in, as a mapping key or not. */
  static Style style(String text, boolean simpleKey) {
    Analysis analysis = Analysis.of(text);
    Style style;
    if (text.contains("\n")) {
      style = Style.LITERAL;
    } else if (readsAsString(text) && !BASE60.matcher(text).matches()) {
      style = Style.PLAIN;
    } else {
      style = Style.DOUBLE;
    }
    if (simpleKey && analysis.multiline) {
      return Style.DOUBLE;
    }
    if (style == Style.PLAIN && (!analysis.blockPlain || (text.isEmpty() && simpleKey))) {
      style = Style.SINGLE;
    }
    if (style == Style.SINGLE && !analysis.singleQuoted) {
      style = Style.DOUBLE;
    }
    if (style == Style.LITERAL && (!analysis.block || simpleKey)) {
      style = Style.DOUBLE;
    }
    return style;
  }

  /** Whether yaml.v2 reads {@code text}, written plain, back as a string. */
  static boolean readsAsString(String text) {
    if (RESOLVED.contains(text)) {
      return false;
    }
    char first = text.charAt(0);
    if (first == '.') {
      return !DOT_FLOAT.matcher(text).matches();
    }
    if (first != '+' && first != '-' && (first < '0' || first > '9')) {
      return true;
    }
    if (isTimestamp(text)) {
      return false;
    }
    String plain = text.replace("_", "");
    return !isGoInt(plain) && !isYamlFloat(plain);
  }

  /**
   * A plain scalar as yaml.v2 reads it into Go's {@code interface{}}: YAML 1.1's booleans (yes, on,
   * off...) and nulls, integers in Go's bases with underscores, floats, anything else (timestamps
   * too) a string.
   */
  static Object valueOfPlain(String text) {
    switch (text) {
      case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
        return Boolean.TRUE;
      case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
        return Boolean.FALSE;
      case "", "~", "null", "Null", "NULL":
        return null;
      case ".nan", ".NaN", ".NAN":
        return Double.NaN;
      case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
        return Double.POSITIVE_INFINITY;
      case "-.inf", "-.Inf", "-.INF":
        return Double.NEGATIVE_INFINITY;
      default:
        break;
    }
    char first = text.charAt(0);
    if (first == '.') {
      return DOT_FLOAT.matcher(text).matches() ? Double.parseDouble(text) : text;
    }
    if (first != '+' && first != '-' && (first < '0' || first > '9')) {
      return text;
    }
    String plain = text.replace("_", "");
    BigInteger integer = goInt(plain);
    if (integer != null) {
      return integer.bitLength() < 64 ? (Object) integer.longValue() : integer;
    }
    return isYamlFloat(plain) ? (Object) Double.parseDouble(plain) : text;
  }

  private static boolean isGoInt(String plain) {
    return goInt(plain) != null;
  }

  /** {@code plain} as Go's ParseInt (or ParseUint) with base 0 reads it; null when it does not. */
  private static BigInteger goInt(String plain) {
    Matcher m = GO_INT.matcher(plain);
    if (!m.matches()) {
      return null;
    }
    String digits = m.group(2);
    int radix = 10;
    String body = digits;
    if (digits.length() > 1 && digits.charAt(0) == '0') {
      char marker = Character.toLowerCase(digits.charAt(1));
      radix = marker == 'x' ? 16 : marker == 'b' ? 2 : 8;
      body = marker == 'x' || marker == 'b' || marker == 'o' ? digits.substring(2) : digits;
    }
    // Longer than any 64-bit number can be written: not one, and never parsed (parsing a long
    // digit string is quadratic, and values are hostile input).
    String significant = body.replaceFirst("^0+", "");
    int maxDigits = radix == 10 ? 20 : radix == 16 ? 16 : radix == 8 ? 22 : 64;
    if (significant.length() > maxDigits) {
      return null;
    }
    BigInteger value = new BigInteger(body, radix);
    if (m.group(1).equals("-")) {
      value = value.negate();
    }
    boolean signed = value.bitLength() < 64;
    boolean unsigned = m.group(1).isEmpty() && value.compareTo(UINT64_MAX) <= 0;
    return signed || unsigned ? value : null;
  }

  private static boolean isYamlFloat(String plain) {
    if (!YAML_FLOAT.matcher(plain).matches()) {
      return false;
    }
    return Double.isFinite(Double.parseDouble(plain));
  }

  private static boolean isTimestamp(String text) {
    Matcher m = TIMESTAMP.matcher(text);
    if (!m.matches()) {
      return false;
    }
    try {
      LocalDate.of(
          Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    } catch (DateTimeException e) {
      return false;
    }
    int time = m.group(4) != null ? 4 : m.group(7) != null ? 7 : 0;
    return time == 0
        || (Integer.parseInt(m.group(time)) < 24
            && Integer.parseInt(m.group(time + 1)) < 60
            && Integer.parseInt(m.group(time + 2)) < 60);
  }

  static boolean isBreak(int c) {
    return c == '\r' || c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029;
  }

  static boolean isPrintable(int c) {
    return c == 0x0A
        || (c >= 0x20 && c <= 0x7E)
        || (c >= 0xA0 && c <= 0xD7FF)
        || (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF);
  }

  static boolean needsEscape(int c) {
    return !isPrintable(c) || isBreak(c) || c == '"' || c == '\\';
  }

  /** libyaml's escape of {@code c} in a double-quoted scalar. */
  static String escape(int c) {
    return switch (c) {
      case 0x00 -> "\\0";
      case 0x07 -> "\\a";
      case 0x08 -> "\\b";
      case 0x09 -> "\\t";
      case 0x0A -> "\\n";
      case 0x0B -> "\\v";
      case 0x0C -> "\\f";
      case 0x0D -> "\\r";
      case 0x1B -> "\\e";
      case 0x22 -> "\\\"";
      case 0x5C -> "\\\\";
      case 0x85 -> "\\N";
      case 0xA0 -> "\\_";
      case 0x2028 -> "\\L";
      case 0x2029 -> "\\P";
      default -> hex(c);
    };
  }

  private static String hex(int c) {
    String digits = Integer.toHexString(c).toUpperCase();
    int width = c <= 0xFF ? 2 : c <= 0xFFFF ? 4 : 8;
    String marker = c <= 0xFF ? "x" : c <= 0xFFFF ? "u" : "U";
    return "\\" + marker + "0".repeat(width - digits.length()) + digits;
  }

  /** What libyaml's emitter allows a scalar's characters to be written as. */
  private record Analysis(
      boolean multiline, boolean blockPlain, boolean singleQuoted, boolean block) {

    static Analysis of(String text) {
      int[] cps = text.codePoints().toArray();
      if (cps.length == 0) {
        return new Analysis(false, true, true, false);
      }
      boolean indicators = text.startsWith("---") || text.startsWith("...");
      boolean precededByWhitespace = true;
      boolean followedByWhitespace = blankz(cps, 1);
      boolean lineBreaks = false;
      boolean special = false;
      boolean leadingSpace = false;
      boolean leadingBreak = false;
      boolean trailingSpace = false;
      boolean trailingBreak = false;
      boolean breakSpace = false;
      boolean spaceBreak = false;
      boolean previousSpace = false;
      boolean previousBreak = false;
      for (int i = 0; i < cps.length; i++) {
        int c = cps[i];
        if (i == 0) {
          indicators |= firstIndicator(c, followedByWhitespace);
        } else {
          indicators |= (c == ':' && followedByWhitespace) || (c == '#' && precededByWhitespace);
        }
        special |= !isPrintable(c);
        boolean last = i == cps.length - 1;
        if (c == ' ') {
          leadingSpace |= i == 0;
          trailingSpace |= last;
          breakSpace |= previousBreak;
          previousSpace = true;
          previousBreak = false;
        } else if (isBreak(c)) {
          lineBreaks = true;
          leadingBreak |= i == 0;
          trailingBreak |= last;
          spaceBreak |= previousSpace;
          previousSpace = false;
          previousBreak = true;
        } else {
          previousSpace = false;
          previousBreak = false;
        }
        precededByWhitespace = blankz(cps, i);
        followedByWhitespace = blankz(cps, i + 2);
      }
      boolean blockPlain = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak);
      boolean single = true;
      boolean block = !trailingSpace;
      if (breakSpace) {
        blockPlain = false;
        single = false;
      }
      if (spaceBreak || special) {
        blockPlain = false;
        single = false;
        block = false;
      }
      if (lineBreaks || indicators) {
        blockPlain = false;
      }
      return new Analysis(lineBreaks, blockPlain, single, block);
    }

    /** An indicator that, first in a scalar, keeps it from being written plain in a block. */
    private static boolean firstIndicator(int c, boolean followedByWhitespace) {
      return switch (c) {
        case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`' ->
            true;
        case '?', ':', '-' -> followedByWhitespace;
        default -> false;
      };
    }

    private static boolean blankz(int[] cps, int i) {
      return i >= cps.length || cps[i] == ' ' || cps[i] == '\t' || isBreak(cps[i]);
    }
  }
}
