package dev.capstan.health.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.ExprKind.Kind;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelKind;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@link EvaluationBudget} charges for each node of one compiled expression, decided once at
 * compile time so that evaluation only looks a number up by node id, and for most nodes finds 0.
 *
 * <p>Every node evaluated costs one unit. Outside comprehensions a node is evaluated at most once,
 * so the whole expression's size is charged when evaluation starts ({@link #baseCost}); inside,
 * each iteration is charged the size of the comprehension's loop condition and step when the step
 * is done. A value handed to a function costs the work of going through it; a node that creates a
 * string, bytes, list or map (a call, a list or map literal, a comprehension) is charged its
 * estimated memory. Nodes that only pass a value on (conditionals, logical operators, indexing,
 * optionals) charge nothing for it, and neither do a comprehension's accumulator and the step that
 * appends to it: the interpreter appends in place, and the comprehension's result is charged once
 * when it is done. Nodes whose checked type has no size (bool, numbers, timestamps) charge nothing
 * beyond their unit.
 */
final class ChargePlan {
  // What the value of a node costs when it is an argument of a call (the low bits of a charge).
  /** Not gone through: passed on, indexed, or tested. */
  static final int PASSED = 0;

  /** Strings and bytes are gone through (size() counts code points); lists and maps are not. */
  static final int STRINGS = 1;

  /** Gone through once, elements not included. */
  static final int SHALLOW = 2;

  /** Compared or hashed element by element, all the way down. */
  static final int DEEP = 3;

  /** The collection of {@code in}: a list is compared element by element, a map looked up. */
  static final int MEMBERSHIP = 4;

  static final int TRAVERSAL = 0x07;

  /** The node creates its value, which is charged its memory. */
  static final int CREATES = 0x08;

  /** The bits above hold the nodes of one iteration, charged when a loop step is done. */
  static final int ITERATION_SHIFT = 4;

  /** Checked types whose values have no size: nothing but the node itself is charged for them. */
  private static final Set<CelKind> SIZELESS =
      Set.of(
          CelKind.BOOL,
          CelKind.INT,
          CelKind.UINT,
          CelKind.DOUBLE,
          CelKind.DURATION,
          CelKind.TIMESTAMP,
          CelKind.NULL_TYPE,
          CelKind.TYPE);

  /** Calls that pass one of their arguments on, or test it, without going through it. */
  private static final Set<String> PASS_THROUGH =
      Set.of(
          "_?_:_",
          "_&&_",
          "_||_",
          "!_",
          "@not_strictly_false",
          "_[_]",
          "_[?_]",
          "_?._",
          "dyn",
          "type",
          "optional.of",
          "optional.ofNonZeroValue",
          "optional.none",
          "or",
          "orValue",
          "value",
          "hasValue",
          "first",
          "last");

  private static final Set<String> EQUALITY = Set.of("_==_", "_!=_");
  private static final Set<String> COMPARING = Set.of("_==_", "_!=_", "distinct");

  private final int[] charges;
  private final long baseCost;

  private ChargePlan(int[] charges, long baseCost) {
    this.charges = charges;
    this.baseCost = baseCost;
  }

  static ChargePlan of(CelAbstractSyntaxTree ast) {
    List<CelExpr> nodes =
        CelNavigableAst.fromAst(ast).getRoot().allNodes().map(CelNavigableExpr::expr).toList();
    int maxId = nodes.stream().mapToInt(node -> (int) node.id()).max().orElse(0);
    int[] charges = new int[maxId + 1];
    Set<String> accumulators =
        nodes.stream()
            .filter(node -> node.getKind() == Kind.COMPREHENSION)
            .map(node -> node.comprehension().accuVar())
            .collect(Collectors.toSet());
    for (CelExpr node : nodes) {
      if (creates(node, accumulators)) {
        charges[(int) node.id()] |= CREATES;
      }
      if (node.getKind() == Kind.CALL && !isAppendToAccumulator(node, accumulators)) {
        markArguments(node.call(), charges);
      }
    }
    for (CelExpr node : nodes) {
      boolean sizeless =
          ast.getType(node.id()).map(type -> SIZELESS.contains(type.kind())).orElse(false);
      if (isAccumulator(node, accumulators) || sizeless) {
        charges[(int) node.id()] &= ~(TRAVERSAL | CREATES);
      }
    }
    for (CelExpr node : nodes) {
      if (node.getKind() == Kind.COMPREHENSION) {
        CelExpr.CelComprehension loop = node.comprehension();
        long iteration = size(loop.loopCondition()) + size(loop.loopStep()) + 1;
        int weight = (int) Math.min(iteration, 1 << 20);
        charges[(int) loop.loopStep().id()] |= weight << ITERATION_SHIFT;
      }
    }
    return new ChargePlan(charges, nodes.size());
  }

  /** Units charged when evaluation starts: every node, evaluated once outside loops. */
  long baseCost() {
    return baseCost;
  }

  /**
   * What evaluating the node with this id is charged: the nodes of an iteration (above {@link
   * #ITERATION_SHIFT}), a traversal ({@link #TRAVERSAL} bits) and {@link #CREATES}; 0 for most
   * nodes.
   */
  int charge(long id) {
    return id < charges.length ? charges[(int) id] : 0;
  }

  private static long size(CelExpr expr) {
    return CelNavigableExpr.fromExpr(expr).allNodes().count();
  }

  private static boolean creates(CelExpr node, Set<String> accumulators) {
    return switch (node.getKind()) {
      case LIST, MAP, STRUCT, COMPREHENSION -> true;
      case CALL -> {
        String function = node.call().function();
        yield !PASS_THROUGH.contains(function) && !isAppendToAccumulator(node, accumulators);
      }
      default -> false;
    };
  }

  private static void markArguments(CelExpr.CelCall call, int[] charges) {
    String function = call.function();
    // Equality stops at the first difference, so comparing with a literal costs at most the
    // literal's length: nothing to charge (the common `c.type == 'Ready'` stays free).
    boolean withLiteral =
        EQUALITY.contains(function) && call.args().stream().anyMatch(ChargePlan::isConstant);
    int traversal = withLiteral ? PASSED : traversalOfArguments(function);
    call.target().ifPresent(target -> mark(target, traversal, charges));
    for (int i = 0; i < call.args().size(); i++) {
      boolean collectionOfIn = "@in".equals(function) && i == 1;
      mark(call.args().get(i), collectionOfIn ? MEMBERSHIP : traversal, charges);
    }
  }

  private static int traversalOfArguments(String function) {
    if (PASS_THROUGH.contains(function)) {
      return PASSED;
    }
    if ("size".equals(function)) {
      return STRINGS;
    }
    if (COMPARING.contains(function) || "@in".equals(function)) {
      return DEEP;
    }
    return SHALLOW;
  }

  private static void mark(CelExpr argument, int traversal, int[] charges) {
    int id = (int) argument.id();
    charges[id] = (charges[id] & ~TRAVERSAL) | traversal;
  }

  private static boolean isConstant(CelExpr node) {
    return node.getKind() == Kind.CONSTANT;
  }

  private static boolean isAppendToAccumulator(CelExpr node, Set<String> accumulators) {
    if (node.getKind() != Kind.CALL || !"_+_".equals(node.call().function())) {
      return false;
    }
    List<CelExpr> args = node.call().args();
    return !args.isEmpty() && isAccumulator(args.get(0), accumulators);
  }

  private static boolean isAccumulator(CelExpr node, Set<String> accumulators) {
    return node.getKind() == Kind.IDENT && accumulators.contains(node.ident().name());
  }
}
