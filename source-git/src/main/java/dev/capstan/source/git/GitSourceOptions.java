package dev.capstan.source.git;

import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.git.transport.UrlScheme;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Configuration of a {@link GitSource}.
 *
 * @param storageRoot where artifacts and repository caches live
 * @param retry how transient network errors are retried
 * @param defaultTimeout used when a request names no timeout
 * @param sizeLimitBytes the largest filtered tree accepted
 * @param entryLimit the most files, directories and links a filtered tree may have
 * @param clock the time source for artifact timestamps and timeouts
 * @param allowedSchemes the URL forms a request may name; any other is refused before anything is
 *     read or fetched. Defaults to {@link UrlScheme#gitRepository()}: remote URLs only
 * @param credentialsOverPlainHttp whether basic auth and bearer tokens may be sent over plain
 *     {@code http://}; false (the default) refuses such a fetch before any request
 */
@RecordBuilder
public record GitSourceOptions(
    Path storageRoot,
    RetryPolicy retry,
    Duration defaultTimeout,
    long sizeLimitBytes,
    int entryLimit,
    Clock clock,
    Set<UrlScheme> allowedSchemes,
    boolean credentialsOverPlainHttp)
    implements GitSourceOptionsBuilder.With {

  public static final long DEFAULT_SIZE_LIMIT = 512L * 1024 * 1024;

  /** As many entries as a build reads from an artifact. */
  public static final int DEFAULT_ENTRY_LIMIT = 100_000;

  public GitSourceOptions {
    Objects.requireNonNull(storageRoot, "storageRoot");
    retry = retry == null ? RetryPolicy.defaults() : retry;
    defaultTimeout = defaultTimeout == null ? Duration.ofSeconds(60) : defaultTimeout;
    sizeLimitBytes = sizeLimitBytes <= 0 ? DEFAULT_SIZE_LIMIT : sizeLimitBytes;
    entryLimit = entryLimit <= 0 ? DEFAULT_ENTRY_LIMIT : entryLimit;
    clock = clock == null ? Clock.systemUTC() : clock;
    allowedSchemes =
        allowedSchemes == null || allowedSchemes.isEmpty()
            ? UrlScheme.gitRepository()
            : Set.copyOf(EnumSet.copyOf(allowedSchemes));
  }

  public static GitSourceOptions at(Path storageRoot) {
    return new GitSourceOptions(storageRoot, null, null, 0, 0, null, null, false);
  }
}
