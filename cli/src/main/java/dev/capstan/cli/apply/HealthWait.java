package dev.capstan.cli.apply;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.wait.WaitResult;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import java.time.Duration;
import java.util.List;

/**
 * {@code --wait}: the applier's wait until all are Current, one Failed, or time runs out; prints
 * how it ended.
 */
public final class HealthWait {

  /** How often the objects are read again: a person watches, and each look is one read each. */
  private static final Duration INTERVAL = Duration.ofSeconds(1);

  private final ResourceManager manager;
  private final Duration timeout;
  private final HealthEvaluator evaluator = HealthEvaluator.withBuiltinLibrary();

  public HealthWait(ResourceManager manager, Duration timeout) {
    this.manager = manager;
    this.timeout = timeout;
  }

  public boolean await(List<ObjectRef> refs, ResultPrinter printer) {
    WaitResult result = manager.await(refs, evaluator, timeout, INTERVAL);
    printer.line(
        switch (result.verdict()) {
          case CURRENT -> "wait: all " + result.health().evaluated() + " objects are Current";
          case FAILED -> "wait: Failed: " + result.health().message();
          case TIMED_OUT, IN_PROGRESS ->
              "wait: not healthy after " + timeout + ": " + result.health().message();
        });
    return result.verdict() == WaitResult.Verdict.CURRENT;
  }
}
