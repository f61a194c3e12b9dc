package dev.capstan.cli.status;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table in kubectl's style: upper-case headers, columns three spaces apart. Every
 * command that prints a table uses it ({@code capstan status}, {@code capstan get}).
 */
public final class Table {
  private static final String GAP = "   ";
  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  public Table(List<String> headers) {
    this.headers = List.copyOf(headers);
  }

  public Table add(List<String> row) {
    if (row.size() != headers.size()) {
      throw new IllegalArgumentException(
          "row has " + row.size() + " cells, table has " + headers.size() + " columns");
    }
    rows.add(row.stream().map(Table::oneLine).toList());
    return this;
  }

  /** The table's lines, the last column not padded. */
  public List<String> lines() {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    List<String> lines = new ArrayList<>(rows.size() + 1);
    lines.add(line(headers, widths));
    rows.forEach(row -> lines.add(line(row, widths)));
    return lines;
  }

  private static String line(List<String> cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      line.append(cell);
      if (i < cells.size() - 1) {
        line.append(" ".repeat(widths[i] - cell.length())).append(GAP);
      }
    }
    return line.toString().stripTrailing();
  }

  // Condition messages may span lines; a table row must not.
  private static String oneLine(String cell) {
    return cell == null ? "" : cell.strip().replaceAll("\\s*\\R\\s*", "; ");
  }
}
