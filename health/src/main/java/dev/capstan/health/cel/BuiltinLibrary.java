package dev.capstan.health.cel;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The built-in library of CEL health checks for popular custom resources, shipped as the resource
 * {@value #RESOURCE}. Loading reads and validates the entries; each entry's expressions are
 * compiled the first time an object of its kind is evaluated (compiling all of them would take
 * seconds that most processes never need), and kept. An instance is thread-safe: load it once and
 * share it between evaluators.
 */
public final class BuiltinLibrary {
  /** The classpath resource holding the library. */
  public static final String RESOURCE = "/dev/capstan/health/builtin-health-checks.yaml";

  public static final String LIST_NAME = "builtin-health-checks.yaml";

  private final List<HealthCheckExpr> entries;
  private final List<LazyHealthCheck> checks;
  private final HealthCheckRegistry registry;

  private BuiltinLibrary(List<HealthCheckExpr> entries, List<LazyHealthCheck> checks) {
    this.entries = entries;
    this.checks = checks;
    this.registry = HealthCheckRegistry.forLibrary(checks, LIST_NAME);
  }

  /**
   * Loads the library resource; expressions are compiled on first use of their kind.
   *
   * @throws InvalidHealthCheckException if an entry is malformed or duplicates another
   */
  public static BuiltinLibrary load() {
    return deferred(readResource());
  }

  /** A library given as YAML text whose expressions compile on first use, as {@link #load}'s. */
  static BuiltinLibrary deferred(String yaml) {
    List<HealthCheckExpr> entries = new HealthCheckExprsYaml().parse(LIST_NAME, yaml);
    return new BuiltinLibrary(
        entries, new HealthCheckCompiler().deferAll(entries, LIST_NAME, true));
  }

  /**
   * Reads and compiles every entry of a library given as YAML text (tests and tools that check a
   * candidate library).
   *
   * @throws InvalidHealthCheckException if an entry is malformed or does not compile
   */
  public static BuiltinLibrary fromYaml(String yaml) {
    List<HealthCheckExpr> entries = new HealthCheckExprsYaml().parse(LIST_NAME, yaml);
    return new BuiltinLibrary(
        entries, new HealthCheckCompiler().compileAll(entries, LIST_NAME, true));
  }

  /** No built-in checks: every kind without a user check gets the kstatus rules. */
  public static BuiltinLibrary none() {
    return new BuiltinLibrary(List.of(), List.of());
  }

  /** The library's entries, in file order. */
  public List<HealthCheckExpr> entries() {
    return entries;
  }

  /** Whether the library has a check for objects of this apiVersion and kind. */
  public boolean covers(String apiVersion, String kind) {
    return registry.find(apiVersion, kind) != null;
  }

  /**
   * Compiles every entry that is not compiled yet; the library's unit test uses it so that an entry
   * that does not compile fails the build rather than the first object of its kind.
   *
   * @throws InvalidHealthCheckException naming the first entry that does not compile
   */
  public void compileEveryEntry() {
    checks.forEach(LazyHealthCheck::get);
  }

  public HealthCheckRegistry registry() {
    return registry;
  }

  private static String readResource() {
    try (InputStream in = BuiltinLibrary.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing classpath resource " + RESOURCE);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
