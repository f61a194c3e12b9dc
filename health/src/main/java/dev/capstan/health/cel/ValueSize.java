package dev.capstan.health.cel;

import dev.cel.common.values.CelByteString;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * How big a CEL value is, in the two measures of {@link EvaluationBudget}: units of work to go
 * through it, and estimated bytes of memory to hold it. Only strings, bytes, lists and maps have a
 * size; numbers, booleans, timestamps and the like count as nothing.
 */
final class ValueSize {
  /** Characters (or bytes) that cost one unit of work to go through. */
  static final int CHARACTERS_PER_UNIT = 10;

  private static final long STRING_HEADER = 40;
  private static final long LIST_HEADER = 16;
  private static final long REFERENCE = 8;
  private static final long MAP_HEADER = 48;
  private static final long MAP_ENTRY = 32;

  /** Characters of a number, bool, timestamp or the like printed, at most. */
  private static final long SCALAR_TEXT = 40;

  private ValueSize() {}

  /** Work to go through the value once, its elements not included. */
  static long shallowWork(Object value) {
    if (value instanceof String s) {
      return characterWork(s.length());
    }
    if (isScalar(value)) {
      return 0;
    }
    if (value instanceof Collection<?> c) {
      return c.size();
    }
    if (value instanceof Map<?, ?> m) {
      return m.size();
    }
    if (value instanceof CelByteString b) {
      return characterWork(b.size());
    }
    return 0;
  }

  /** Work to go through a string only (lists and maps know their size without going through). */
  static long stringWork(Object value) {
    if (value instanceof String s) {
      return characterWork(s.length());
    }
    if (value instanceof CelByteString b) {
      return characterWork(b.size());
    }
    return 0;
  }

  /**
   * Work to go through the value and everything in it, as a deep comparison does; counting stops
   * once it passes {@code cap}, so that measuring never costs more than the budget left.
   */
  static long deepWork(Object value, long cap) {
    long work = Math.max(1, shallowWork(value));
    if (!(value instanceof Collection<?>) && !(value instanceof Map<?, ?>)) {
      return work; // the common case (a string or number compared) allocates nothing
    }
    return inside(value, work, cap, element -> Math.max(1, shallowWork(element)));
  }

  /**
   * {@code start} plus {@code measure} of every element of the list or map {@code value}, at any
   * depth; counting stops once the sum passes {@code cap}.
   */
  private static long inside(Object value, long start, long cap, ToLongFunction<Object> measure) {
    long sum = start;
    Deque<Iterator<?>> levels = new ArrayDeque<>();
    push(levels, value);
    while (!levels.isEmpty() && sum <= cap) {
      Iterator<?> level = levels.peek();
      if (!level.hasNext()) {
        levels.pop();
        continue;
      }
      Object next = level.next();
      sum += measure.applyAsLong(next);
      push(levels, next);
    }
    return sum;
  }

  private static void push(Deque<Iterator<?>> levels, Object value) {
    if (value instanceof Collection<?> c) {
      levels.push(c.iterator());
    } else if (value instanceof Map<?, ?> m) {
      // Keys and values alike are hashed or compared.
      levels.push(m.keySet().iterator());
      levels.push(m.values().iterator());
    }
  }

  /**
   * An upper bound of the length of the value printed as text (as {@code join} prints elements that
   * are not strings); counting stops once it passes {@code cap}.
   */
  static long printedLength(Object value, long cap) {
    if (value instanceof String s) {
      return s.length();
    }
    if (!(value instanceof Collection<?>) && !(value instanceof Map<?, ?>)) {
      return SCALAR_TEXT;
    }
    return inside(value, 0, cap, ValueSize::printedElement) + 2;
  }

  /** An element printed inside a list or map: quotes and separator included, if printed. */
  private static long printedElement(Object element) {
    if (element instanceof String s) {
      return s.length() + 4;
    }
    return element instanceof Collection<?> || element instanceof Map<?, ?> ? 4 : SCALAR_TEXT + 4;
  }

  /** Estimated bytes of memory a newly created value takes, its elements not included. */
  static long bytes(Object value) {
    if (value instanceof String s) {
      return stringBytes(s.length());
    }
    if (isScalar(value)) {
      return 0;
    }
    if (value instanceof Collection<?> c) {
      return listBytes(c.size());
    }
    if (value instanceof Map<?, ?> m) {
      return MAP_HEADER + MAP_ENTRY * m.size();
    }
    if (value instanceof CelByteString b) {
      return LIST_HEADER + b.size();
    }
    return 0;
  }

  /** Estimated bytes of a string of {@code length} UTF-16 characters. */
  static long stringBytes(long length) {
    return STRING_HEADER + 2 * length;
  }

  /** Estimated bytes of a list of {@code size} elements, the elements not included. */
  static long listBytes(long size) {
    return LIST_HEADER + REFERENCE * size;
  }

  /** The common values without a size, told apart by a cheap class check. */
  private static boolean isScalar(Object value) {
    return value instanceof Boolean || value instanceof Long || value instanceof Double;
  }

  static long characterWork(long characters) {
    return (characters + CHARACTERS_PER_UNIT - 1) / CHARACTERS_PER_UNIT;
  }
}
