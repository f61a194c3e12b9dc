package dev.capstan.engine.helmrelease;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Values written as YAML byte for byte as Helm's {@code Values.Encode} writes them (Go's
 * sigs.k8s.io/yaml over yaml.v2), the input of Flux's values digest: keys in yaml.v2's order, block
 * style with sequences not indented under their key, empty collections as {@code {}} and {@code
 * []}, numbers as Go writes a float64 read back as YAML, and each string plain, quoted or literal
 * as libyaml's emitter chooses, long lines folded at 80 columns. Not reproduced: keys over 128
 * characters or with line breaks (yaml.v2 writes them as complex keys).
 */
final class GoYaml {
  private static final int WIDTH = 80;
  private static final int STEP = 2;

  private final StringBuilder out = new StringBuilder();
  private int column;
  private int indent = -1;
  private boolean whitespace = true;
  private boolean indention = true;

  private GoYaml() {}

  /** The YAML of {@code values}; {@code "{}\n"} when there are none. */
  static String write(Map<String, Object> values) {
    GoYaml yaml = new GoYaml();
    yaml.node(values, false, false);
    yaml.indent = -1;
    yaml.writeIndent();
    return yaml.out.toString();
  }

  private void node(Object value, boolean mappingContext, boolean simpleKey) {
    if (value instanceof Map<?, ?> map) {
      mapping(map, mappingContext);
    } else if (value instanceof List<?> list) {
      sequence(list, mappingContext);
    } else {
      scalar(value, simpleKey);
    }
  }

  private void mapping(Map<?, ?> map, boolean mappingContext) {
    if (map.isEmpty()) {
      emptyFlow("{", "}");
      return;
    }
    int saved = indent;
    increaseIndent(false, false);
    List<String> keys = new ArrayList<>();
    map.keySet().forEach(k -> keys.add(String.valueOf(k)));
    keys.sort(GoYamlKeys::compare);
    for (String key : keys) {
      writeIndent();
      node(key, false, true);
      indicator(":", false, false, false);
      node(map.get(key), true, false);
    }
    indent = saved;
  }

  private void sequence(List<?> list, boolean mappingContext) {
    if (list.isEmpty()) {
      emptyFlow("[", "]");
      return;
    }
    int saved = indent;
    increaseIndent(false, mappingContext && !indention);
    for (Object item : list) {
      writeIndent();
      indicator("-", true, false, true);
      node(item, false, false);
    }
    indent = saved;
  }

  private void emptyFlow(String open, String close) {
    indicator(open, true, true, false);
    indicator(close, false, false, false);
  }

  private void scalar(Object value, boolean simpleKey) {
    int saved = indent;
    increaseIndent(true, false);
    if (value instanceof String text) {
      string(text, simpleKey);
    } else {
      plain(GoYamlScalars.plainOf(value), false);
    }
    indent = saved;
  }

  private void string(String text, boolean simpleKey) {
    GoYamlScalars.Style style = GoYamlScalars.style(text, simpleKey);
    switch (style) {
      case PLAIN -> plain(text, !simpleKey);
      case SINGLE -> singleQuoted(text, !simpleKey);
      case DOUBLE -> doubleQuoted(text, !simpleKey);
      case LITERAL -> literal(text);
    }
  }

  private void increaseIndent(boolean flow, boolean indentless) {
    if (indent < 0) {
      indent = flow ? STEP : 0;
    } else if (!indentless) {
      indent += STEP;
    }
  }

  private void writeIndent() {
    int target = Math.max(indent, 0);
    if (!indention || column > target || (column == target && !whitespace)) {
      putBreak();
    }
    while (column < target) {
      put(' ');
    }
    whitespace = true;
    indention = true;
  }

  private void indicator(
      String indicator, boolean needWhitespace, boolean isWhitespace, boolean isIndention) {
    if (needWhitespace && !whitespace) {
      put(' ');
    }
    out.append(indicator);
    column += indicator.length();
    whitespace = isWhitespace;
    indention = indention && isIndention;
  }

  private void put(int codePoint) {
    out.appendCodePoint(codePoint);
    column++;
  }

  private void putBreak() {
    out.append('\n');
    column = 0;
  }

  private void plain(String text, boolean allowBreaks) {
    if (!whitespace) {
      put(' ');
    }
    int[] cps = text.codePoints().toArray();
    boolean spaces = false;
    for (int i = 0; i < cps.length; i++) {
      if (cps[i] == ' ') {
        if (allowBreaks && !spaces && column > WIDTH && !spaceAt(cps, i + 1)) {
          writeIndent();
        } else {
          put(' ');
        }
        spaces = true;
      } else {
        put(cps[i]);
        indention = false;
        spaces = false;
      }
    }
    whitespace = false;
    indention = false;
  }

  private void singleQuoted(String text, boolean allowBreaks) {
    indicator("'", true, false, false);
    int[] cps = text.codePoints().toArray();
    boolean spaces = false;
    for (int i = 0; i < cps.length; i++) {
      if (cps[i] == ' ') {
        if (allowBreaks
            && !spaces
            && column > WIDTH
            && i != 0
            && i != cps.length - 1
            && !spaceAt(cps, i + 1)) {
          writeIndent();
        } else {
          put(' ');
        }
        spaces = true;
      } else {
        if (cps[i] == '\'') {
          put('\'');
        }
        put(cps[i]);
        indention = false;
        spaces = false;
      }
    }
    indicator("'", false, false, false);
  }

  private void doubleQuoted(String text, boolean allowBreaks) {
    indicator("\"", true, false, false);
    int[] cps = text.codePoints().toArray();
    boolean spaces = false;
    for (int i = 0; i < cps.length; i++) {
      int c = cps[i];
      if (GoYamlScalars.needsEscape(c)) {
        String escape = GoYamlScalars.escape(c);
        out.append(escape);
        column += escape.length();
        spaces = false;
      } else if (c == ' ') {
        if (allowBreaks && !spaces && column > WIDTH && i != 0 && i != cps.length - 1) {
          writeIndent();
          if (spaceAt(cps, i + 1)) {
            put('\\');
          }
        } else {
          put(' ');
        }
        spaces = true;
      } else {
        put(c);
        spaces = false;
      }
    }
    indicator("\"", false, false, false);
  }

  private void literal(String text) {
    indicator("|", true, false, false);
    int[] cps = text.codePoints().toArray();
    if (cps.length > 0 && (cps[0] == ' ' || GoYamlScalars.isBreak(cps[0]))) {
      indicator(String.valueOf(STEP), false, false, false);
    }
    String chomp = chomping(cps);
    if (!chomp.isEmpty()) {
      indicator(chomp, false, false, false);
    }
    putBreak();
    indention = true;
    whitespace = true;
    boolean breaks = true;
    for (int c : cps) {
      if (GoYamlScalars.isBreak(c)) {
        putBreak();
        indention = true;
        breaks = true;
      } else {
        if (breaks) {
          writeIndent();
          breaks = false;
        }
        put(c);
        indention = false;
      }
    }
  }

  private static String chomping(int[] cps) {
    int last = cps.length - 1;
    if (cps.length == 0 || !GoYamlScalars.isBreak(cps[last])) {
      return "-";
    }
    if (last == 0 || GoYamlScalars.isBreak(cps[last - 1])) {
      return "+";
    }
    return "";
  }

  private static boolean spaceAt(int[] cps, int i) {
    return i < cps.length && cps[i] == ' ';
  }

  /** A float64 as Go's {@code strconv.FormatFloat(f, 'g', -1, 64)} writes it. */
  static String formatG(double value) {
    if (Double.isNaN(value)) {
      return ".nan";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? ".inf" : "-.inf";
    }
    if (value == 0) {
      return (1 / value < 0) ? "-0" : "0";
    }
    BigDecimal shortest = new BigDecimal(Double.toString(Math.abs(value))).stripTrailingZeros();
    String digits = shortest.unscaledValue().toString();
    int exponent = digits.length() - 1 - shortest.scale();
    String sign = value < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 6) {
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      String exp = String.valueOf(Math.abs(exponent));
      return sign
          + mantissa
          + "e"
          + (exponent < 0 ? "-" : "+")
          + (exp.length() < 2 ? "0" + exp : exp);
    }
    return sign + shortest.toPlainString();
  }
}
