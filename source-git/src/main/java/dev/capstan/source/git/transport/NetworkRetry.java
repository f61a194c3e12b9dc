package dev.capstan.source.git.transport;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.core.functions.CheckedSupplier;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Runs one remote operation with retries of transient errors, until a deadline.
 *
 * @param policy how often and how far apart the attempts are
 * @param clock tells the deadline's time, here and to the operations retried
 */
public record NetworkRetry(RetryPolicy policy, Clock clock) {

  /**
   * @param givenUp true once retrying is known to be pointless (e.g. a host key was rejected)
   */
  <T> T call(String operation, Instant deadline, BooleanSupplier givenUp, CheckedSupplier<T> op)
      throws Exception {
    IntervalFunction backoff =
        policy.multiplier() > 1.0
            ? IntervalFunction.ofExponentialBackoff(policy.initialBackoff(), policy.multiplier())
            : IntervalFunction.of(policy.initialBackoff());
    AtomicInteger failures = new AtomicInteger();
    RetryConfig config =
        RetryConfig.custom()
            .maxAttempts(policy.maxAttempts())
            .intervalFunction(backoff)
            .retryOnException(
                e ->
                    FailureClassifier.isTransient(e)
                        && !givenUp.getAsBoolean()
                        // Only retry if the wait still leaves time: better the real error than a
                        // timeout.
                        && clock
                            .instant()
                            .plusMillis(backoff.apply(failures.incrementAndGet()))
                            .isBefore(deadline))
            .build();
    try {
      return Retry.of(operation, config).executeCheckedSupplier(op);
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }
}
