package dev.capstan.sharding;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A replica's claimed slots as its Lease carries them: {@code from-to} ranges joined by commas
 * ({@code 0-341,1023-1024}), ends exclusive. Read as hostile text, since anyone allowed to write
 * Leases can write it: a malformed, overlapping or out-of-space claim is refused whole, and the
 * message never quotes it.
 */
public final class SlotClaims {
  private static final int MAX_RANGES = 4096;

  private SlotClaims() {}

  /** The annotation text of a list of ranges. */
  public static String write(List<SlotRange> ranges) {
    return ranges.stream().map(r -> r.from() + "-" + r.to()).collect(Collectors.joining(","));
  }

  /** The ranges an annotation names, in order; refused whole when any part is wrong. */
  public static List<SlotRange> read(String text, SlotSpace space) {
    List<SlotRange> ranges = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return ranges;
    }
    String[] parts = text.split(",", MAX_RANGES + 1);
    if (parts.length > MAX_RANGES) {
      throw new IllegalArgumentException("a claim names more than " + MAX_RANGES + " ranges");
    }
    int end = 0;
    for (int i = 0; i < parts.length; i++) {
      SlotRange range = range(parts[i].trim(), i, space);
      if (range.from() < end) {
        throw new IllegalArgumentException(
            "range " + (i + 1) + " of a claim overlaps or is out of order");
      }
      ranges.add(range);
      end = range.to();
    }
    return ranges;
  }

  private static SlotRange range(String part, int index, SlotSpace space) {
    int dash = part.indexOf('-');
    try {
      int from = Integer.parseInt(part.substring(0, Math.max(dash, 0)));
      int to = Integer.parseInt(part.substring(dash + 1));
      if (dash < 1 || from < 0 || to > space.count() || to <= from) {
        throw new NumberFormatException();
      }
      return new SlotRange(from, to);
    } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
      throw new IllegalArgumentException(
          "range " + (index + 1) + " of a claim is not from-to within 0-" + space.count());
    }
  }
}
