package dev.capstan.cli.apply;

import dev.capstan.applier.common.Polling;
import dev.capstan.applier.wait.ApplyWaiter;
import dev.capstan.applier.wait.WaitResult;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * {@code --wait}: the applier's wait until all are Current, one Failed, or time runs out; prints
 * how it ended.
 */
final class HealthWait {

  private final ApplyWaiter waiter;
  private final Duration timeout;
  private final HealthEvaluator evaluator = HealthEvaluator.withBuiltinLibrary();

  HealthWait(KubernetesClient client, Executor executor, Duration timeout) {
    this.waiter =
        ApplyWaiter.onCluster(
            client,
            executor,
            new Polling(Clock.systemUTC(), Duration.ofSeconds(1), d -> Thread.sleep(d.toMillis())));
    this.timeout = timeout;
  }

  boolean await(List<ObjectRef> refs, ResultPrinter printer) {
    WaitResult result = waiter.await(refs, evaluator, timeout);
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
