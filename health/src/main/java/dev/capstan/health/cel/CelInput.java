package dev.capstan.health.cel;

import dev.cel.common.values.NullValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An object held as nested Java maps and lists, presented the way CEL's runtime needs its values:
 * every integral number as {@code Long} (CEL {@code int}), every floating-point number as {@code
 * Double}, and a JSON {@code null} as CEL {@code null}.
 *
 * <p>Jackson and fabric8 give small whole numbers as {@code Integer}, for which CEL has no
 * overloads ({@code status.replicas >= 1} would fail with "no matching overload"). Rather than
 * copying the object, maps and lists are wrapped in read-only views that convert a value when it is
 * read: an expression pays only for the fields it touches, however large the object (managed
 * fields, annotations, ...), and an object that already holds {@code Long}s is read unchanged.
 */
final class CelInput {
  private CelInput() {}

  /** The top-level field {@code name} as a CEL value; empty when the object has no such field. */
  static Optional<Object> field(Map<String, ?> object, String name) {
    Object value = object.get(name);
    if (value == null && !object.containsKey(name)) {
      return Optional.empty();
    }
    return Optional.of(adapt(value));
  }

  /** One value as CEL reads it; maps and lists become converting views, not copies. */
  static Object adapt(Object value) {
    if (value instanceof String || value instanceof Long || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Map<?, ?> map) {
      return map instanceof MapView ? map : new MapView(map);
    }
    if (value instanceof List<?> list) {
      return list instanceof ListView ? list : new ListView(list);
    }
    if (value == null) {
      return NullValue.NULL_VALUE;
    }
    return number(value);
  }

  private static Object number(Object value) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    if (value instanceof BigInteger big) {
      // Beyond 64 bits CEL has no integer type; a double keeps the magnitude.
      return big.bitLength() < 64 ? (Object) big.longValue() : (Object) big.doubleValue();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.doubleValue();
    }
    return value;
  }

  /** A read-only map whose values are converted when read. */
  private static final class MapView extends AbstractMap<Object, Object> {
    private final Map<?, ?> map;

    MapView(Map<?, ?> map) {
      this.map = map;
    }

    @Override
    public Object get(Object key) {
      Object value = map.get(key);
      if (value == null && !map.containsKey(key)) {
        return null;
      }
      return adapt(value);
    }

    @Override
    public boolean containsKey(Object key) {
      return map.containsKey(key);
    }

    @Override
    public int size() {
      return map.size();
    }

    @Override
    public boolean isEmpty() {
      return map.isEmpty();
    }

    @Override
    public Set<Object> keySet() {
      @SuppressWarnings("unchecked")
      Set<Object> keys = (Set<Object>) map.keySet();
      return keys;
    }

    /** Never the contents: cel-java prints the arguments of a failed function into its message. */
    @Override
    public String toString() {
      return "{map of " + map.size() + " entries}";
    }

    @Override
    public Set<Entry<Object, Object>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Entry<Object, Object>> iterator() {
          Iterator<? extends Entry<?, ?>> entries = map.entrySet().iterator();
          return new Iterator<>() {
            @Override
            public boolean hasNext() {
              return entries.hasNext();
            }

            @Override
            public Entry<Object, Object> next() {
              Entry<?, ?> entry = entries.next();
              return new SimpleImmutableEntry<>(entry.getKey(), adapt(entry.getValue()));
            }
          };
        }

        @Override
        public int size() {
          return map.size();
        }
      };
    }
  }

  /** A read-only list whose elements are converted when read. */
  private static final class ListView extends AbstractList<Object> {
    private final List<?> list;

    ListView(List<?> list) {
      this.list = list;
    }

    @Override
    public Object get(int index) {
      return adapt(list.get(index));
    }

    @Override
    public int size() {
      return list.size();
    }

    /** Never the contents: cel-java prints the arguments of a failed function into its message. */
    @Override
    public String toString() {
      return "[list of " + list.size() + " elements]";
    }

    @Override
    public Iterator<Object> iterator() {
      // The wrapped list's own iterator: linear even when it is not random-access.
      Iterator<?> elements = list.iterator();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return elements.hasNext();
        }

        @Override
        public Object next() {
          return adapt(elements.next());
        }
      };
    }
  }
}
