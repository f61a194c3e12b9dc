package dev.capstan.health;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
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
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelListsExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The CEL environment every health check expression is compiled in: the standard library and
 * macros, the strings, lists, math, sets, encoders and optional extensions, cross-type numeric
 * comparisons, and a per-evaluation budget of comprehension iterations so that a hostile expression
 * cannot hang the caller.
 *
 * <p>The object's top-level fields are the variables. Expressions are type-checked with every root
 * identifier they mention declared as {@code dyn}, so a field the object lacks is not a compile
 * error; at run time such a variable is reported as {@code no such attribute(s)}.
 */
final class CelHealthEnvironment {

  /** Comprehension iterations allowed in one evaluation of one expression. */
  static final int MAX_ITERATIONS = 10_000;

  /** Longest expression accepted, in code points. */
  static final int MAX_EXPRESSION_SIZE = 10_000;

  /** Identifiers that name CEL types or function namespaces rather than object fields. */
  private static final Set<String> RESERVED =
      Set.of(
          "int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type",
          "dyn", "optional_type");

  private static final Set<String> NAMESPACES =
      Set.of("math", "strings", "base64", "sets", "optional", "lists");

  private final Cel cel;

  CelHealthEnvironment() {
    CelOptions options =
        CelOptions.current()
            .enableHeterogeneousNumericComparisons(true)
            .enableOptionalSyntax(true)
            .comprehensionMaxIterations(MAX_ITERATIONS)
            .maxExpressionCodePointSize(MAX_EXPRESSION_SIZE)
            .build();
    // lists.range would let an expression allocate an arbitrarily large list in one call.
    Set<CelListsExtensions.Function> lists = EnumSet.allOf(CelListsExtensions.Function.class);
    lists.remove(CelListsExtensions.Function.RANGE);
    this.cel =
        CelFactory.standardCelBuilder()
            .setOptions(options)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addCompilerLibraries(
                CelExtensions.strings(),
                CelExtensions.lists(lists),
                CelExtensions.math(options),
                CelExtensions.sets(options),
                CelExtensions.encoders(options),
                CelExtensions.optional())
            .addRuntimeLibraries(
                CelExtensions.strings(),
                CelExtensions.lists(lists),
                CelExtensions.math(options),
                CelExtensions.sets(options),
                CelExtensions.encoders(options),
                CelExtensions.optional())
            .build();
  }

  /**
   * Compiles one expression.
   *
   * @throws CelCompileException with the CEL error text (it carries the position)
   */
  CompiledExpr compile(String expression) throws CelCompileException {
    CelAbstractSyntaxTree parsed = parse(expression);
    Map<Long, String> rootPaths = rootPaths(parsed);
    CelCompilerBuilder checker = cel.toCompilerBuilder();
    for (String root : new LinkedHashSet<>(rootPaths.values().stream().map(p -> rootOf(p)).toList())) {
      checker.addVar(root, SimpleType.DYN);
    }
    CelCompiler compiler = checker.build();
    CelValidationResult checked = compiler.check(parsed);
    if (checked.hasError()) {
      throw new CelCompileException(checked.getErrorString());
    }
    try {
      return new CompiledExpr(expression, cel.createProgram(checked.getAst()), rootPaths);
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

  /** An expression that did not parse or type-check; the message is CEL's, with the position. */
  static final class CelCompileException extends Exception {
    private static final long serialVersionUID = 1L;

    CelCompileException(String message) {
      super(message);
    }
  }
}
