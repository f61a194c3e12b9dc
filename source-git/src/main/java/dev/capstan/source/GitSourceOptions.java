package dev.capstan.source;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Configuration of a {@link GitSource}.
 *
 * @param storageRoot where artifacts and repository caches live
 * @param retry how transient network errors are retried
 * @param defaultTimeout used when a request names no timeout
 * @param sizeLimitBytes the largest filtered tree accepted
 * @param clock the time source for artifact timestamps and timeouts
 */
public record GitSourceOptions(
    Path storageRoot, RetryPolicy retry, Duration defaultTimeout, long sizeLimitBytes,
    Clock clock) {

  public static final long DEFAULT_SIZE_LIMIT = 512L * 1024 * 1024;

  public GitSourceOptions {
    Objects.requireNonNull(storageRoot, "storageRoot");
    retry = retry == null ? RetryPolicy.defaults() : retry;
    defaultTimeout = defaultTimeout == null ? Duration.ofSeconds(60) : defaultTimeout;
    sizeLimitBytes = sizeLimitBytes <= 0 ? DEFAULT_SIZE_LIMIT : sizeLimitBytes;
    clock = clock == null ? Clock.systemUTC() : clock;
  }

  public static GitSourceOptions at(Path storageRoot) {
    return new GitSourceOptions(storageRoot, null, null, 0, null);
  }

  public GitSourceOptions withRetry(RetryPolicy r) {
    return new GitSourceOptions(storageRoot, r, defaultTimeout, sizeLimitBytes, clock);
  }

  public GitSourceOptions withSizeLimit(long bytes) {
    return new GitSourceOptions(storageRoot, retry, defaultTimeout, bytes, clock);
  }

  public GitSourceOptions withClock(Clock c) {
    return new GitSourceOptions(storageRoot, retry, defaultTimeout, sizeLimitBytes, c);
  }

  public GitSourceOptions withDefaultTimeout(Duration t) {
    return new GitSourceOptions(storageRoot, retry, t, sizeLimitBytes, clock);
  }
}
