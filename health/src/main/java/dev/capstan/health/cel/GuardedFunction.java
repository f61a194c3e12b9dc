package dev.capstan.health.cel;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The CEL functions whose result can be far larger than their arguments, or whose work grows faster
 * than their arguments, or that search a text: one call could allocate gigabytes ({@code
 * 'x'.replace('x', 'xxxxxxxxxx')} nine times over) or run for minutes ({@code sets.contains} of two
 * long lists) before anything after it could stop it. The searching ones run in linear time here
 * ({@link SearchingFunctions}) and are charged for their search. Each is checked against the {@link
 * EvaluationBudget} before it runs, from its arguments: the room its result needs, computed without
 * building it (the result itself is charged once made, as every value is), and the work of its
 * comparisons. A call that would exceed the budget fails without running.
 *
 * <p>Also here: every other function that takes lists and can fail, so that its failure is reported
 * without its arguments (see {@link CelFunctionFailedException}).
 */
enum GuardedFunction {
  /** {@code s.replace(old, new)} and {@code s.replace(old, new, n)}. */
  REPLACE("replace") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      String text = (String) args[0];
      String target = (String) args[1];
      String replacement = (String) args[2];
      long limit = args.length > 3 ? ((Number) args[3]).longValue() : -1;
      chargeSearch(text, target, budget);
      long count = SearchingFunctions.replacements(text, target, limit);
      long length = text.length() + count * ((long) replacement.length() - target.length());
      budget.ensureOutputRoom(ValueSize.stringBytes(length));
      budget.chargeCost(ValueSize.characterWork(Math.max(length, text.length())));
    }
  },

  /** {@code list.join()} and {@code list.join(separator)}; elements that are not strings print. */
  JOIN("join") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      Collection<?> parts = (Collection<?>) args[0];
      long separator = args.length > 1 ? ((String) args[1]).length() : 0;
      long length = Math.max(0, parts.size() - 1) * separator;
      long room = budget.outputLeft() / 2;
      for (Object part : parts) {
        length += ValueSize.printedLength(part, room - length);
        if (length > room) {
          break;
        }
      }
      budget.ensureOutputRoom(ValueSize.stringBytes(length));
      budget.chargeCost(ValueSize.characterWork(length));
    }
  },

  /** {@code s.split(separator)} and {@code s.split(separator, n)}: many small strings. */
  SPLIT("split") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      String text = (String) args[0];
      String separator = (String) args[1];
      long limit = args.length > 2 ? ((Number) args[2]).longValue() : -1;
      chargeSearch(text, separator, budget);
      long parts = SearchingFunctions.pieces(text, separator, limit);
      // The list is charged when it is made, as every value is; the strings in it are not.
      budget.chargeOutput(parts * ValueSize.stringBytes(0) + 2L * text.length());
      budget.ensureOutputRoom(ValueSize.listBytes(parts));
      budget.chargeCost(ValueSize.characterWork(text.length()) + parts);
    }
  },

  /**
   * {@code s.indexOf(t)}, {@code s.lastIndexOf(t)} (with or without an offset) and {@code
   * s.contains(t)}: one pass of the linear search over the text and the needle.
   */
  SEARCH("indexOf", "lastIndexOf", "contains") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      chargeSearch((String) args[0], (String) args[1], budget);
    }
  },

  /** {@code list.flatten()} and {@code list.flatten(depth)}. */
  FLATTEN("flatten") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      long depth = args.length > 1 ? ((Number) args[1]).longValue() : 1;
      if (depth < 0) {
        return; // the function itself rejects it
      }
      long elements = flattenedSize((Collection<?>) args[0], depth, budget.outputLeft());
      budget.ensureOutputRoom(ValueSize.listBytes(elements));
      budget.chargeCost(elements);
    }
  },

  /** {@code sets.contains}, {@code sets.equivalent}, {@code sets.intersects}: pairwise. */
  SETS("sets.contains", "sets.equivalent", "sets.intersects") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      long left = ValueSize.deepWork(args[0], budget.costLeft());
      long right = ValueSize.deepWork(args[1], budget.costLeft());
      budget.chargeCost(saturatedProduct(left, right));
    }
  },

  /** {@code slice}, {@code reverse}, {@code distinct}: a new list at most as long. */
  LIST_COPY("slice", "reverse", "distinct") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      budget.ensureOutputRoom(ValueSize.listBytes(((Collection<?>) args[0]).size()));
    }
  },

  /**
   * {@code sort()} and {@code sortBy}: a new list. Each element takes part in about log n
   * comparisons, each of which may go through all of it (long strings that differ at the end).
   */
  SORT("sort", "lists.@sortByAssociatedKeys") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      Collection<?> list = (Collection<?>) args[0];
      budget.ensureOutputRoom(ValueSize.listBytes(list.size()));
      long log = 64 - Long.numberOfLeadingZeros(list.size());
      long work = ValueSize.deepWork(list, budget.costLeft() / Math.max(1, log));
      budget.chargeCost(saturatedProduct(work, log));
    }
  },

  /**
   * {@code math.greatest} and {@code math.least}: over a list, a comparison with every element,
   * each of which may go through all of it.
   */
  EXTREMES("math.@max", "math.@min") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      if (args.length == 1 && args[0] instanceof Collection<?> list) {
        budget.chargeCost(ValueSize.deepWork(list, budget.costLeft()));
      }
    }
  },

  /** {@code s.matches(re)} and {@code matches(s, re)}: compiling, then matching. */
  MATCHES("matches") {
    @Override
    void charge(Object[] args, EvaluationBudget budget) {
      String text = (String) args[0];
      String regex = (String) args[1];
      int maxSize = budget.limits().maxRegexProgramSize();
      long size = RegexSize.estimate(regex, maxSize);
      if (size > maxSize) {
        throw CelLimitExceededException.regexSize(budget.limits());
      }
      // RE2/J matches in time linear in the text, times the program size at worst.
      long matching = saturatedProduct(ValueSize.characterWork(text.length() + 1L), size);
      budget.chargeCost(matching + ValueSize.characterWork(regex.length()) + size);
    }
  };

  private static final Map<String, GuardedFunction> BY_NAME =
      Stream.of(values())
          .flatMap(f -> f.celNames.stream().map(name -> Map.entry(name, f)))
          .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));

  private final List<String> celNames;

  GuardedFunction(String... celNames) {
    this.celNames = List.of(celNames);
  }

  /** The guarded function called {@code celName}, or null. */
  static GuardedFunction named(String celName) {
    return BY_NAME.get(celName);
  }

  /**
   * Charges the call to the budget; the arguments have the types of one of the function's
   * overloads.
   *
   * @throws CelLimitExceededException when the call would exceed the budget
   */
  abstract void charge(Object[] args, EvaluationBudget budget);

  /**
   * The work of searching {@code text} for {@code needle}, charged before the search (and before
   * the counting that sizes a result) runs: linear in both, as {@link SearchingFunctions} are.
   */
  private static void chargeSearch(String text, String needle, EvaluationBudget budget) {
    budget.chargeCost(ValueSize.characterWork((long) text.length() + needle.length()));
  }

  /** A list being flattened and how many more levels below it are flattened. */
  private record Level(Iterator<?> elements, long depth) {}

  /** Elements of the list flattened {@code depth} levels; counting stops past {@code cap} bytes. */
  private static long flattenedSize(Collection<?> list, long depth, long capBytes) {
    long count = 0;
    Deque<Level> levels = new ArrayDeque<>();
    levels.push(new Level(list.iterator(), depth));
    while (!levels.isEmpty() && ValueSize.listBytes(count) <= capBytes) {
      Level level = levels.peek();
      if (!level.elements().hasNext()) {
        levels.pop();
      } else if (level.elements().next() instanceof Collection<?> inner && level.depth() > 0) {
        levels.push(new Level(inner.iterator(), level.depth() - 1));
      } else {
        count++;
      }
    }
    return count;
  }

  private static long saturatedProduct(long a, long b) {
    long product = a * b;
    return a != 0 && (product / a != b || product < 0) ? Long.MAX_VALUE : product;
  }
}
