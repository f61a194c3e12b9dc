package dev.capstan.health.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.checker.CelStandardDeclarations;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerLibrary;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntimeLibrary;
import dev.cel.runtime.CelStandardFunctions;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The CEL environment every health check expression is compiled in: the standard library and
 * macros, the strings, lists, math, sets, encoders and optional extensions, cross-type numeric
 * comparisons, and the {@link CelLimits}: expressions are bounded in length when compiled, and
 * every evaluation in comprehension iterations, work and memory, so that a hostile expression or
 * object can neither hang the caller nor exhaust its heap.
 *
 * <p>The object's top-level fields are the variables. Expressions are type-checked with every root
 * identifier they mention declared as {@code dyn}, so a field the object lacks is not a compile
 * error; at run time such a variable is reported as {@code no such attribute(s)}.
 */
final class CelHealthEnvironment {

  /** Identifiers that name CEL types or function namespaces rather than object fields. */
  private static final Set<String> RESERVED =
      Set.of(
          "int",
          "uint",
          "double",
          "bool",
          "string",
          "bytes",
          "list",
          "map",
          "null_type",
          "type",
          "dyn",
          "optional_type");

  private static final Set<String> NAMESPACES =
      Set.of("math", "strings", "base64", "sets", "optional", "lists");

  private final Cel cel;
  private final CelLimits limits;
  private final GuardedBindings guarded;

  CelHealthEnvironment() {
    this(CelLimits.DEFAULT);
  }

  CelHealthEnvironment(CelLimits limits) {
    this.limits = limits;
    CelOptions options =
        CelOptions.current()
            .enableHeterogeneousNumericComparisons(true)
            .enableOptionalSyntax(true)
            .comprehensionMaxIterations(limits.maxIterations())
            .maxExpressionCodePointSize(limits.maxExpressionLength())
            .maxRegexProgramSize(limits.maxRegexProgramSize())
            .build();
    this.guarded = new GuardedBindings(options);
    List<Extension> extensions = extensions(options);
    this.cel =
        CelFactory.standardCelBuilder()
            .setOptions(options)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            // The whole standard environment, given explicitly so that the runtime's can lack
            // the guarded standard functions (cel-java accepts a custom set only this way).
            .setStandardEnvironmentEnabled(false)
            .setStandardDeclarations(CelStandardDeclarations.newBuilder().build())
            .setStandardFunctions(
                CelStandardFunctions.newBuilder()
                    .excludeFunctions(GuardedBindings.GUARDED_STANDARD_FUNCTIONS)
                    .build())
            .addCompilerLibraries(extensions.stream().map(Extension::declared).toList())
            // The guarded functions are declared to the compiler but left out of the runtime, which
            // then asks each evaluation's budget for them (see GuardedBindings).
            .addFunctionBindings(guarded.runtimeOverrides())
            .addRuntimeLibraries(extensions.stream().flatMap(e -> e.bound().stream()).toList())
            .build();
  }

  /**
   * One CEL extension: all of it declared to the compiler, and bound in the runtime without its
   * guarded functions; nothing is bound for an extension whose every function is guarded.
   */
  private record Extension(CelCompilerLibrary declared, Optional<CelRuntimeLibrary> bound) {}

  private static List<Extension> extensions(CelOptions options) {
    return List.of(
        new Extension(
            CelExtensions.strings(),
            Optional.of(CelExtensions.strings(GuardedBindings.UNGUARDED_STRING_FUNCTIONS))),
        new Extension(CelExtensions.lists(GuardedBindings.LIST_FUNCTIONS), Optional.empty()),
        new Extension(
            CelExtensions.math(options),
            Optional.of(CelExtensions.math(options, GuardedBindings.UNGUARDED_MATH_FUNCTIONS))),
        new Extension(CelExtensions.sets(options), Optional.empty()),
        new Extension(
            CelExtensions.encoders(options), Optional.of(CelExtensions.encoders(options))),
        new Extension(CelExtensions.optional(), Optional.of(CelExtensions.optional())));
  }

  /**
   * Compiles one expression.
   *
   * @throws CelCompileException with the CEL error text (it carries the position)
   */
  CompiledExpr compile(String expression) throws CelCompileException {
    int length = expression.codePointCount(0, expression.length());
    if (length > limits.maxExpressionLength()) {
      throw CelCompileException.tooLong(length, limits.maxExpressionLength());
    }
    CelAbstractSyntaxTree parsed = parse(expression);
    Map<Long, String> rootPaths = rootPaths(parsed);
    CelCompilerBuilder checker = cel.toCompilerBuilder();
    for (String root :
        new LinkedHashSet<>(rootPaths.values().stream().map(p -> rootOf(p)).toList())) {
      checker.addVar(root, SimpleType.DYN);
    }
    CelCompiler compiler = checker.build();
    CelValidationResult checked = compiler.check(parsed);
    if (checked.hasError()) {
      throw new CelCompileException(checked.getErrorString());
    }
    try {
      CelAbstractSyntaxTree ast = checked.getAst();
      ChargePlan plan = ChargePlan.of(ast);
      return new CompiledExpr(
          expression,
          cel.createProgram(ast),
          rootPaths,
          () -> new EvaluationBudget(limits, plan, guarded),
          ast.getResultType().equals(SimpleType.BOOL)
              || ast.getResultType().equals(SimpleType.DYN));
    } catch (CelValidationException | CelEvaluationException e) {
      throw new CelCompileException(e.getMessage());
    }
  }

  private CelAbstractSyntaxTree parse(String expression) throws CelCompileException {
    CelValidationResult parsed = cel.parse(expression);
    if (parsed.hasError()) {
      throw new CelCompileException(parsed.getErrorString());
    }
    try {
      return parsed.getAst();
    } catch (CelValidationException e) {
      throw new CelCompileException(e.getMessage());
    }
  }

  /**
   * For every identifier that refers to an object field, the id of its node and the dotted path
   * written after it ({@code status.conditions} for {@code status.conditions.filter(...)}); the
   * path names the missing attribute in errors.
   */
  private static Map<Long, String> rootPaths(CelAbstractSyntaxTree ast) {
    Map<Long, String> paths = new HashMap<>();
    CelNavigableAst.fromAst(ast)
        .getRoot()
        .allNodes()
        .filter(node -> node.getKind() == CelExpr.ExprKind.Kind.IDENT)
        .filter(node -> isFieldReference(node))
        .forEach(node -> paths.put(node.id(), dottedPath(node)));
    return paths;
  }

  private static boolean isFieldReference(CelNavigableExpr node) {
    String name = node.expr().ident().name();
    if (RESERVED.contains(name) || name.startsWith("@") || name.startsWith("__")) {
      return false;
    }
    Optional<CelNavigableExpr> parent = node.parent();
    boolean namespaceCall =
        parent.isPresent()
            && parent.get().getKind() == CelExpr.ExprKind.Kind.CALL
            && parent.get().expr().call().target().map(t -> t.id() == node.id()).orElse(false);
    return !(namespaceCall && NAMESPACES.contains(name));
  }

  private static String dottedPath(CelNavigableExpr ident) {
    StringBuilder path = new StringBuilder(ident.expr().ident().name());
    CelNavigableExpr current = ident;
    Optional<CelNavigableExpr> parent = current.parent();
    while (parent.isPresent() && parent.get().getKind() == CelExpr.ExprKind.Kind.SELECT) {
      path.append('.').append(parent.get().expr().select().field());
      current = parent.get();
      parent = current.parent();
    }
    return path.toString();
  }

  private static String rootOf(String path) {
    int dot = path.indexOf('.');
    return dot < 0 ? path : path.substring(0, dot);
  }

  /**
   * An expression that did not parse or type-check, the message CEL's with the position; or one too
   * long to be parsed at all.
   */
  static final class CelCompileException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean tooLong;

    CelCompileException(String message) {
      this(message, false);
    }

    private CelCompileException(String message, boolean tooLong) {
      super(message);
      this.tooLong = tooLong;
    }

    static CelCompileException tooLong(int length, int max) {
      return new CelCompileException(
          "the expression is "
              + length
              + " characters long, more than the limit of "
              + max
              + " characters",
          true);
    }

    /** Whether the expression was too long to be parsed (and too long to be quoted). */
    boolean tooLong() {
      return tooLong;
    }
  }
}
