package dev.capstan.testing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which package imports which, among the project's own ({@code dev.capstan.*}) packages, and the
 * cycles among them. An import names a class, a nested class or a static member; its package is the
 * longest prefix of it that is a package of the graph.
 */
final class PackageGraph {
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
  private static final Pattern IMPORT =
      Pattern.compile("(?m)^import\\s+(?:static\\s+)?(dev\\.capstan\\.[\\w.]+?)(\\.\\*)?\\s*;");

  private final Map<String, List<String>> importsBySource = new HashMap<>();
  private final Map<String, String> packageBySource = new HashMap<>();

  /** Adds one source file; {@code name} names it in the messages. */
  void add(String name, String source) {
    Matcher pkg = PACKAGE.matcher(source);
    if (!pkg.find()) {
      return;
    }
    packageBySource.put(name, pkg.group(1));
    List<String> imports = new ArrayList<>();
    Matcher imp = IMPORT.matcher(source);
    while (imp.find()) {
      imports.add(imp.group(1) + (imp.group(2) == null ? "" : ".*"));
    }
    importsBySource.put(name, imports);
  }

  /** Each package's imported packages, with one source file that imports it, by package. */
  Map<String, Map<String, String>> edges() {
    Set<String> packages = new TreeSet<>(packageBySource.values());
    Map<String, Map<String, String>> edges = new TreeMap<>();
    packages.forEach(p -> edges.put(p, new TreeMap<>()));
    importsBySource.forEach(
        (source, imports) -> {
          String from = packageBySource.get(source);
          for (String imported : imports) {
            String to = packageOf(imported, packages);
            if (to != null && !to.equals(from)) {
              edges.get(from).putIfAbsent(to, source);
            }
          }
        });
    return edges;
  }

  /**
   * Every set of packages that import each other in a circle (the strongly connected components of
   * more than one package), each sorted, with a path round one circle of it.
   */
  List<Cycle> cycles() {
    Map<String, Map<String, String>> edges = edges();
    List<Cycle> cycles = new ArrayList<>();
    for (Set<String> component : new Components(edges).find()) {
      cycles.add(new Cycle(component, circle(component, edges)));
    }
    return cycles;
  }

  /** Packages that import each other in a circle, and one such circle with who imports whom. */
  record Cycle(Set<String> packages, List<String> path) {}

  private static String packageOf(String imported, Set<String> packages) {
    String name = imported.endsWith(".*") ? imported.substring(0, imported.length() - 2) : imported;
    if (imported.endsWith(".*") && packages.contains(name)) {
      return name;
    }
    for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
      if (packages.contains(name.substring(0, dot))) {
        return name.substring(0, dot);
      }
    }
    return null;
  }

  /** A shortest way from the first package of the component back to itself, each step named. */
  private static List<String> circle(
      Set<String> component, Map<String, Map<String, String>> edges) {
    String start = component.iterator().next();
    Map<String, String> cameFrom = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>(List.of(start));
    while (!queue.isEmpty()) {
      String at = queue.poll();
      for (String next : edges.get(at).keySet()) {
        if (!component.contains(next) || cameFrom.containsKey(next)) {
          continue;
        }
        cameFrom.put(next, at);
        if (next.equals(start)) {
          return steps(start, cameFrom, edges);
        }
        queue.add(next);
      }
    }
    return List.of();
  }

  private static List<String> steps(
      String start, Map<String, String> cameFrom, Map<String, Map<String, String>> edges) {
    List<String> steps = new ArrayList<>();
    String to = start;
    do {
      String from = cameFrom.get(to);
      steps.add(0, from + " -> " + to + " (" + edges.get(from).get(to) + ")");
      to = from;
    } while (!to.equals(start));
    return steps;
  }

  /** Tarjan's strongly connected components, those of more than one package. */
  private static final class Components {
    private final Map<String, Map<String, String>> edges;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> low = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final List<Set<String>> found = new ArrayList<>();

    Components(Map<String, Map<String, String>> edges) {
      this.edges = edges;
    }

    List<Set<String>> find() {
      for (String p : edges.keySet()) {
        if (!index.containsKey(p)) {
          visit(p);
        }
      }
      return found;
    }

    private void visit(String p) {
      index.put(p, index.size());
      low.put(p, index.get(p));
      stack.push(p);
      for (String next : edges.get(p).keySet()) {
        if (!index.containsKey(next)) {
          visit(next);
          low.put(p, Math.min(low.get(p), low.get(next)));
        } else if (stack.contains(next)) {
          low.put(p, Math.min(low.get(p), index.get(next)));
        }
      }
      if (low.get(p).equals(index.get(p))) {
        Set<String> component = new TreeSet<>();
        String member;
        do {
          member = stack.pop();
          component.add(member);
        } while (!member.equals(p));
        if (component.size() > 1) {
          found.add(component);
        }
      }
    }
  }
}
