package dev.capstan.health.cel;

import static java.util.stream.Collectors.toSet;

import dev.cel.common.CelOptions;
import dev.cel.common.exceptions.CelRuntimeException;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelListsExtensions;
import dev.cel.extensions.CelMathExtensions;
import dev.cel.extensions.CelStringExtensions;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelFunctionOverload;
import dev.cel.runtime.CelResolvedOverload;
import dev.cel.runtime.CelRuntimeBuilder;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.CelStandardFunctions.StandardFunction;
import dev.cel.runtime.RuntimeEquality;
import dev.cel.runtime.RuntimeHelpers;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The implementations of the {@link GuardedFunction}s (cel-java's own, but for the searching
 * functions: {@link SearchingFunctions}), kept out of the runtime and handed to each evaluation
 * through its {@link EvaluationBudget}: cel-java looks a function up in the runtime first and in
 * the evaluation's function resolver only when the runtime lacks it, so every call of these goes
 * through the budget, which charges it and then calls the implementation. Immutable; one per
 * environment.
 */
final class GuardedBindings {
  /** String functions that stay in the runtime unguarded. */
  static final Set<CelStringExtensions.Function> UNGUARDED_STRING_FUNCTIONS =
      Set.of(
          CelStringExtensions.Function.CHAR_AT,
          CelStringExtensions.Function.LOWER_ASCII,
          CelStringExtensions.Function.QUOTE,
          CelStringExtensions.Function.REVERSE,
          CelStringExtensions.Function.SUBSTRING,
          CelStringExtensions.Function.TRIM,
          CelStringExtensions.Function.UPPER_ASCII);

  /** Math functions that stay in the runtime unguarded: all but greatest and least. */
  static final Set<CelMathExtensions.Function> UNGUARDED_MATH_FUNCTIONS =
      Set.copyOf(
          EnumSet.complementOf(
              EnumSet.of(CelMathExtensions.Function.MAX, CelMathExtensions.Function.MIN)));

  /** The list functions available ({@code lists.range} is not: it allocates without bound). */
  static final Set<CelListsExtensions.Function> LIST_FUNCTIONS =
      Set.copyOf(EnumSet.complementOf(EnumSet.of(CelListsExtensions.Function.RANGE)));

  /** The standard functions that are guarded; the runtime gets every other. */
  static final Set<StandardFunction> GUARDED_STANDARD_FUNCTIONS =
      Set.of(StandardFunction.MATCHES, StandardFunction.CONTAINS);

  private static final Set<String> SEARCHING_FUNCTIONS =
      Set.of("indexOf", "lastIndexOf", "replace", "split", "contains");

  /**
   * The implementations of the searching functions by overload id, in place of cel-java's, which
   * take len(text) x len(needle) steps (see {@link SearchingFunctions}).
   */
  private static final Map<String, CelFunctionOverload> SEARCHING =
      Map.of(
          "string_index_of_string",
          args -> SearchingFunctions.indexOf((String) args[0], (String) args[1]),
          "string_index_of_string_int",
          args -> SearchingFunctions.indexOf((String) args[0], (String) args[1], (Long) args[2]),
          "string_last_index_of_string",
          args -> SearchingFunctions.lastIndexOf((String) args[0], (String) args[1]),
          "string_last_index_of_string_int",
          args ->
              SearchingFunctions.lastIndexOf((String) args[0], (String) args[1], (Long) args[2]),
          "string_replace_string_string",
          args -> SearchingFunctions.replace((String) args[0], (String) args[1], (String) args[2]),
          "string_replace_string_string_int",
          args ->
              SearchingFunctions.replace(
                  (String) args[0], (String) args[1], (String) args[2], (Long) args[3]),
          "string_split_string",
          args -> SearchingFunctions.split((String) args[0], (String) args[1]),
          "string_split_string_int",
          args -> SearchingFunctions.split((String) args[0], (String) args[1], (Long) args[2]),
          "contains_string",
          args -> SearchingFunctions.contains((String) args[0], (String) args[1]));

  private static final String OPTIONAL_UNWRAP = "optional_unwrap_list";

  private final Map<String, CelFunctionBinding> byOverloadId;
  private final List<CelFunctionBinding> unwrap;

  /** The guarded functions' implementations, every list function's among them. */
  GuardedBindings(CelOptions options) {
    RuntimeEquality equality = RuntimeEquality.create(RuntimeHelpers.create(), options);
    List<CelFunctionBinding> bindings = new ArrayList<>();
    bindings.addAll(searching(equality, options));
    bindings.addAll(
        collect(CelExtensions.strings(CelStringExtensions.Function.JOIN)::setRuntimeOptions));
    bindings.addAll(
        collect(
            builder ->
                CelExtensions.lists(LIST_FUNCTIONS).setRuntimeOptions(builder, equality, options)));
    bindings.addAll(
        collect(
            CelExtensions.math(
                    options, CelMathExtensions.Function.MAX, CelMathExtensions.Function.MIN)
                ::setRuntimeOptions));
    bindings.addAll(collect(CelExtensions.sets(options)::setRuntimeOptions));
    bindings.addAll(
        CelStandardFunctions.newBuilder()
            .includeFunctions(StandardFunction.MATCHES)
            .build()
            .newFunctionBindings(equality, options));
    this.byOverloadId =
        bindings.stream()
            .collect(Collectors.toUnmodifiableMap(CelFunctionBinding::getOverloadId, b -> b));
    this.unwrap =
        collect(builder -> CelExtensions.optional().setRuntimeOptions(builder, equality, options))
            .stream()
            .filter(b -> b.getOverloadId().equals(OPTIONAL_UNWRAP))
            .map(
                b ->
                    CelFunctionBinding.from(
                        OPTIONAL_UNWRAP,
                        b.getArgTypes(),
                        reportingFailures(OPTIONAL_UNWRAP, b.getDefinition())))
            .toList();
  }

  /**
   * {@code optional.unwrap(list)}, which fails on a list of anything but optionals, made to fail
   * without printing the list; for the runtime, whose bindings win over its libraries'. (Its work
   * and its result are no larger than its argument, which is charged as any function's.)
   */
  List<CelFunctionBinding> runtimeOverrides() {
    return unwrap;
  }

  /**
   * The overload of a guarded function that takes these arguments, charging {@code budget} before
   * it runs; empty when the function is not guarded or no overload takes the arguments.
   */
  Optional<CelResolvedOverload> resolve(
      String function, Collection<String> overloadIds, Object[] args, EvaluationBudget budget) {
    GuardedFunction guarded = GuardedFunction.named(function);
    if (guarded == null) {
      return Optional.empty();
    }
    for (String overloadId : overloadIds) {
      CelFunctionBinding binding = byOverloadId.get(overloadId);
      if (binding != null
          && CelFunctionOverload.canHandle(args, binding.getArgTypes(), binding.isStrict())) {
        CelFunctionOverload implementation = reportingFailures(overloadId, binding.getDefinition());
        CelFunctionOverload charged =
            callArgs -> {
              guarded.charge(callArgs, budget);
              return implementation.apply(callArgs);
            };
        return Optional.of(
            CelResolvedOverload.of(
                function, overloadId, charged, binding.isStrict(), binding.getArgTypes()));
      }
    }
    return Optional.empty();
  }

  /**
   * The searching functions: cel-java's overloads (their ids and argument types) bound to the
   * linear implementations. Fails when the two disagree on the overloads, as a new cel-java could.
   */
  private static List<CelFunctionBinding> searching(RuntimeEquality equality, CelOptions options) {
    List<CelFunctionBinding> celJava = new ArrayList<>();
    celJava.addAll(
        collect(
            CelExtensions.strings(
                    CelStringExtensions.Function.INDEX_OF,
                    CelStringExtensions.Function.LAST_INDEX_OF,
                    CelStringExtensions.Function.REPLACE,
                    CelStringExtensions.Function.SPLIT)
                ::setRuntimeOptions));
    celJava.addAll(
        CelStandardFunctions.newBuilder()
            .includeFunctions(StandardFunction.CONTAINS)
            .build()
            .newFunctionBindings(equality, options));
    // Besides one binding per overload, cel-java binds each function by its name, for dispatch
    // at run time; checked expressions name their overloads, so those are left out.
    List<CelFunctionBinding> overloads =
        celJava.stream().filter(b -> !SEARCHING_FUNCTIONS.contains(b.getOverloadId())).toList();
    Set<String> ids = overloads.stream().map(CelFunctionBinding::getOverloadId).collect(toSet());
    if (!ids.equals(SEARCHING.keySet())) {
      throw new IllegalStateException(
          "cel-java's searching overloads " + ids + " are not the ones implemented here");
    }
    return overloads.stream()
        .map(
            b ->
                CelFunctionBinding.from(
                    b.getOverloadId(), b.getArgTypes(), SEARCHING.get(b.getOverloadId())))
        .toList();
  }

  /** The implementation, its failures said without its arguments (CelFunctionFailedException). */
  private static CelFunctionOverload reportingFailures(
      String overloadId, CelFunctionOverload implementation) {
    return args -> {
      try {
        return implementation.apply(args);
      } catch (CelRuntimeException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new CelFunctionFailedException(overloadId);
      }
    };
  }

  /**
   * The function bindings a runtime library registers. Libraries only ever call {@code
   * addFunctionBindings} on the builder they are given; a proxy records those calls.
   */
  private static List<CelFunctionBinding> collect(Consumer<CelRuntimeBuilder> library) {
    List<CelFunctionBinding> found = new ArrayList<>();
    CelRuntimeBuilder recorder =
        (CelRuntimeBuilder)
            Proxy.newProxyInstance(
                CelRuntimeBuilder.class.getClassLoader(),
                new Class<?>[] {CelRuntimeBuilder.class},
                (proxy, method, args) -> {
                  if (!method.getName().equals("addFunctionBindings")) {
                    throw new UnsupportedOperationException(method.getName());
                  }
                  if (args[0] instanceof CelFunctionBinding[] array) {
                    found.addAll(List.of(array));
                  } else {
                    ((Iterable<?>) args[0]).forEach(b -> found.add((CelFunctionBinding) b));
                  }
                  return proxy;
                });
    library.accept(recorder);
    return found;
  }
}
