package dev.capstan.testing;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two rules of the project's Java style that the formatter leaves to the author: a type is
 * named by its simple name (imported) unless that name is already taken in the file, and no line is
 * longer than the formatter's limit, text blocks and import lines aside.
 */
final class SourceStyle {
  static final int LINE_LIMIT = 100;

  private static final Pattern QUALIFIED =
      Pattern.compile("(?<![\\w.$])((?:[a-z][a-z0-9_]*\\.)+)([A-Z]\\w*)");
  private static final Pattern IMPORT =
      Pattern.compile("^import\\s+(?:static\\s+)?[\\w.]*?\\.([A-Z]\\w*)(?:\\.\\w+)*\\s*;");
  private static final Pattern DECLARED =
      Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z]\\w*)");

  /** One rule broken at one line (1-based). */
  record Problem(int line, String what) {}

  private final Predicate<String> samePackageHas;

  /**
   * @param samePackageHas whether the file's package has a type of that simple name
   */
  SourceStyle(Predicate<String> samePackageHas) {
    this.samePackageHas = samePackageHas;
  }

  List<Problem> check(String source) {
    String[] lines = source.split("\n", -1);
    CodeOnly code = CodeOnly.of(source);
    Set<String> taken = takenNames(code.lines());
    List<Problem> problems = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String codeLine = code.lines().get(i);
      String trimmed = codeLine.strip();
      if (trimmed.startsWith("import ") || trimmed.startsWith("package ")) {
        continue;
      }
      if (!code.inTextBlock().get(i)
          && lines[i].codePointCount(0, lines[i].length()) > LINE_LIMIT) {
        problems.add(new Problem(i + 1, "longer than " + LINE_LIMIT + " characters"));
      }
      Matcher m = QUALIFIED.matcher(codeLine);
      while (m.find()) {
        String simple = m.group(2);
        if (!taken.contains(simple) && !samePackageHas.test(simple) && !inJavaLang(simple)) {
          problems.add(new Problem(i + 1, m.group(1) + simple + " written in full: import it"));
        }
      }
    }
    return problems;
  }

  private static Set<String> takenNames(List<String> codeLines) {
    Set<String> taken = new HashSet<>();
    for (String line : codeLines) {
      Matcher imported = IMPORT.matcher(line.strip());
      if (imported.find()) {
        taken.add(imported.group(1));
      }
      Matcher declared = DECLARED.matcher(line);
      while (declared.find()) {
        taken.add(declared.group(1));
      }
    }
    return taken;
  }

  private static boolean inJavaLang(String simple) {
    try {
      Class.forName("java.lang." + simple, false, SourceStyle.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /** The source with comments and string and character literals blanked, line by line. */
  record CodeOnly(List<String> lines, List<Boolean> inTextBlock) {

    static CodeOnly of(String source) {
      List<String> lines = new ArrayList<>();
      List<Boolean> inTextBlock = new ArrayList<>();
      StringBuilder line = new StringBuilder();
      boolean textBlockLine = false;
      Mode mode = Mode.CODE;
      for (int i = 0; i < source.length(); i++) {
        char c = source.charAt(i);
        if (c == '\n') {
          lines.add(line.toString());
          inTextBlock.add(textBlockLine || mode == Mode.TEXT_BLOCK);
          line.setLength(0);
          textBlockLine = mode == Mode.TEXT_BLOCK;
          if (mode == Mode.LINE_COMMENT) {
            mode = Mode.CODE;
          }
          continue;
        }
        switch (mode) {
          case CODE -> {
            if (source.startsWith("//", i)) {
              mode = Mode.LINE_COMMENT;
            } else if (source.startsWith("/*", i)) {
              mode = Mode.BLOCK_COMMENT;
              i++;
            } else if (source.startsWith("\"\"\"", i)) {
              mode = Mode.TEXT_BLOCK;
              textBlockLine = true;
              i += 2;
            } else if (c == '"') {
              mode = Mode.STRING;
            } else if (c == '\'') {
              mode = Mode.CHAR;
            } else {
              line.append(c);
              continue;
            }
            line.append(' ');
          }
          case BLOCK_COMMENT -> {
            if (source.startsWith("*/", i)) {
              mode = Mode.CODE;
              i++;
            }
            line.append(' ');
          }
          case TEXT_BLOCK -> {
            if (c == '\\' && i + 1 < source.length() && source.charAt(i + 1) != '\n') {
              i++;
            } else if (source.startsWith("\"\"\"", i)) {
              mode = Mode.CODE;
              i += 2;
            }
            line.append(' ');
          }
          case STRING, CHAR -> {
            if (c == '\\' && i + 1 < source.length() && source.charAt(i + 1) != '\n') {
              i++;
            } else if ((mode == Mode.STRING && c == '"') || (mode == Mode.CHAR && c == '\'')) {
              mode = Mode.CODE;
            }
            line.append(' ');
          }
          case LINE_COMMENT -> line.append(' ');
        }
      }
      lines.add(line.toString());
      inTextBlock.add(textBlockLine || mode == Mode.TEXT_BLOCK);
      return new CodeOnly(lines, inTextBlock);
    }
  }

  private enum Mode {
    CODE,
    LINE_COMMENT,
    BLOCK_COMMENT,
    STRING,
    CHAR,
    TEXT_BLOCK
  }
}
