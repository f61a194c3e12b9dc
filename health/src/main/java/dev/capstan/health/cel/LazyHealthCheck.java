package dev.capstan.health.cel;

import dev.capstan.health.status.DecidedBy;
import java.util.function.Supplier;

/**
 * One {@code healthCheckExprs} entry whose expressions are compiled on first use and then kept.
 * Compiling the whole built-in library takes seconds; a process meets only a few of its kinds, so
 * each entry is compiled when an object of its kind is first evaluated. Thread-safe: an entry is
 * compiled at most once, and a compile error is kept and reported on every use.
 */
public final class LazyHealthCheck {
  private final HealthCheckExpr entry;
  private final Supplier<CelHealthCheck> compile;
  private volatile CelHealthCheck check;
  private volatile String failure;

  private final DecidedBy asUser;
  private final DecidedBy asBuiltin;

  LazyHealthCheck(HealthCheckExpr entry, Supplier<CelHealthCheck> compile) {
    this.entry = entry;
    this.compile = compile;
    this.asUser = new DecidedBy.UserCel(entry.label());
    this.asBuiltin = new DecidedBy.BuiltinCel(entry.label());
  }

  /** The attribution of a status this entry decides, as a user's entry or a built-in one. */
  public DecidedBy decidedBy(boolean user) {
    return user ? asUser : asBuiltin;
  }

  HealthCheckExpr entry() {
    return entry;
  }

  /**
   * The compiled check.
   *
   * @throws InvalidHealthCheckException if an expression does not compile, naming the entry
   */
  public CelHealthCheck get() {
    CelHealthCheck compiled = check;
    if (compiled != null) {
      return compiled;
    }
    synchronized (this) {
      if (check == null && failure == null) {
        try {
          check = compile.get();
        } catch (InvalidHealthCheckException e) {
          failure = e.getMessage();
        }
      }
      if (failure != null) {
        throw new InvalidHealthCheckException(failure);
      }
      return check;
    }
  }
}
