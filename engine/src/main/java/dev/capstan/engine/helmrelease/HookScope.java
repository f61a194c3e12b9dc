package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * Which hooks of an event {@link ReleaseHooks} runs ({@code selected} by name), how long each may
 * take ({@code timeout}, from its creation), and the engine's {@code bound} on the wait for the
 * whole event, whichever ends first.
 */
record HookScope(Predicate<String> selected, Duration timeout, Bound bound) {
  /** Some hooks, each at most {@code timeout}, the event's wait unbounded. */
  HookScope(Predicate<String> selected, Duration timeout) {
    this(selected, timeout, Bound.NONE);
  }

  /** Every hook, each at most the release's {@code spec.timeout}: an install's, an upgrade's. */
  static HookScope all(HelmRelease release) {
    return new HookScope(name -> true, release.getSpec().effectiveTimeout());
  }

  /** No hook of the event is waited on after {@code until}, {@code length} after it began. */
  record Bound(Instant until, Duration length) {
    static final Bound NONE = new Bound(Instant.MAX, Duration.ZERO);
  }
}
