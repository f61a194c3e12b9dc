package dev.capstan.health;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The built-in library of CEL health checks for popular custom resources, shipped as the resource
 * {@value #RESOURCE}. Loading compiles every entry; a bad entry fails the load with a message
 * naming it. An instance is immutable: load it once and share it between evaluators.
 */
public final class BuiltinLibrary {
  /** The classpath resource holding the library. */
  public static final String RESOURCE = "/dev/capstan/health/builtin-health-checks.yaml";

  static final String LIST_NAME = "builtin-health-checks.yaml";

  private final List<HealthCheckExpr> entries;
  private final HealthCheckRegistry registry;

  private BuiltinLibrary(List<HealthCheckExpr> entries, HealthCheckRegistry registry) {
    this.entries = entries;
    this.registry = registry;
  }

  /**
   * Loads and compiles the library resource.
   *
   * @throws InvalidHealthCheckException if an entry is malformed or does not compile
   */
  public static BuiltinLibrary load() {
    return fromYaml(readResource());
  }

  /** Compiles a library given as YAML text (tests and tools that check a candidate library). */
  public static BuiltinLibrary fromYaml(String yaml) {
    List<HealthCheckExpr> entries = new HealthCheckExprsYaml().parse(LIST_NAME, yaml);
    HealthCheckCompiler compiler = new HealthCheckCompiler(new CelHealthEnvironment());
    List<CelHealthCheck> compiled = compiler.compileAll(entries, LIST_NAME, true);
    return new BuiltinLibrary(entries, HealthCheckRegistry.forLibrary(compiled, LIST_NAME));
  }

  /** No built-in checks: every kind without a user check gets the kstatus rules. */
  public static BuiltinLibrary none() {
    return new BuiltinLibrary(List.of(), HealthCheckRegistry.empty());
  }

  /** The library's entries, in file order. */
  public List<HealthCheckExpr> entries() {
    return entries;
  }

  /** Whether the library has a check for objects of this apiVersion and kind. */
  public boolean covers(String apiVersion, String kind) {
    return registry.find(apiVersion, kind) != null;
  }

  HealthCheckRegistry registry() {
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
