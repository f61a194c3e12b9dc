package dev.capstan.sharding;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

  /**
   * A group's claims as its shard map carries them.
   *
   * @param byReplica each named replica's ranges; a claim that cannot be read holds every slot
   * @param unreadable the replicas whose claim could not be read (and so hold every slot)
   * @param unnamed how many non-blank entries name no replica (ignored)
   */
  public record Claims(
      Map<String, List<SlotRange>> byReplica, List<String> unreadable, int unnamed) {
    public Claims {
      byReplica = Map.copyOf(byReplica);
      unreadable = List.copyOf(unreadable);
    }
  }

  /**
   * {@code replica=0-12,40-44;other=12-40}, as the replicas write a shard map. A claim that cannot
   * be read is taken for every slot: the safe side, since it keeps every slot from being taken
   * until its replica (which rewrites its own entry) or its Lease's expiry settles it. The text is
   * bounded by the API server's limit on an object's annotations.
   */
  public static Claims readAll(String text, SlotSpace space) {
    Map<String, List<SlotRange>> claims = new TreeMap<>();
    List<String> unreadable = new ArrayList<>();
    int unnamed = 0;
    for (String entry : (text == null ? "" : text).split(";")) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        unnamed += entry.isBlank() ? 0 : 1;
        continue;
      }
      String replica = entry.substring(0, eq);
      List<SlotRange> ranges;
      try {
        ranges = read(entry.substring(eq + 1), space);
      } catch (IllegalArgumentException e) {
        ranges = List.of(new SlotRange(0, space.count()));
        unreadable.add(replica);
      }
      claims.put(replica, ranges);
    }
    return new Claims(claims, unreadable, unnamed);
  }

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
