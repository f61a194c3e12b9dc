package dev.capstan.health.cli;

import java.util.ArrayList;
import java.util.List;

/** The human-readable form of {@code capstan status}: aligned KIND, NAMESPACE, NAME, STATUS, MESSAGE. */
final class Table {
  private Table() {}

  static String render(List<StatusCommand.Row> rows) {
    List<String[]> cells = new ArrayList<>();
    cells.add(new String[] {"KIND", "NAMESPACE", "NAME", "STATUS", "MESSAGE"});
    for (StatusCommand.Row row : rows) {
      cells.add(
          new String[] {
            row.ref().kind(),
            row.ref().namespace(),
            row.ref().name(),
            row.status().status().name(),
            row.status().message().replace('\n', ' ')
          });
    }
    int[] widths = new int[4];
    for (String[] line : cells) {
      for (int i = 0; i < widths.length; i++) {
        widths[i] = Math.max(widths[i], line[i].length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (String[] line : cells) {
      for (int i = 0; i < widths.length; i++) {
        text.append(line[i]).append(" ".repeat(widths[i] - line[i].length() + 3));
      }
      text.append(line[4]).append(System.lineSeparator());
    }
    return text.toString();
  }
}
