package dev.capstan.source.core;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Ends the reads of response bodies at their fetch's deadline, for every kind of source that reads
 * over java.net.http (an OCI registry, a Helm repository's index). The request timeout of
 * java.net.http covers the wait for the response headers only: a body sent one byte at a time, or
 * not at all, would hold a read (and the reconcile thread doing it) for as long as the server
 * likes. A body read through {@link #handler} is closed by a scheduled task once the deadline has
 * passed, which wakes a read blocked on it, and every read checks the deadline as well.
 */
public final class ReadDeadlines {
  private final ScheduledExecutorService scheduler;
  private final Clock clock;

  /**
   * @param scheduler runs the closes; its tasks are short and never block
   */
  public ReadDeadlines(ScheduledExecutorService scheduler, Clock clock) {
    this.scheduler = scheduler;
    this.clock = clock;
  }

  /** With a scheduler thread of its own (a daemon: it never keeps the process alive). */
  public static ReadDeadlines withOwnThread(Clock clock) {
    ScheduledThreadPoolExecutor scheduler =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "capstan-read-deadlines");
              thread.setDaemon(true);
              return thread;
            });
    // Most bodies are closed long before their deadline: their closes leave the queue at once.
    scheduler.setRemoveOnCancelPolicy(true);
    return new ReadDeadlines(scheduler, clock);
  }

  /**
   * A body handler whose body stream fails with {@code reason} and {@code message} once {@code
   * deadline} has passed, even while a read waits for the server.
   */
  public HttpResponse.BodyHandler<InputStream> handler(
      Instant deadline, FailureReason reason, String message) {
    return info ->
        HttpResponse.BodySubscribers.mapping(
            HttpResponse.BodySubscribers.ofInputStream(),
            in -> bound(in, deadline, reason, message));
  }

  /** {@code body}, failing with {@code reason} and {@code message} after {@code deadline}. */
  public InputStream bound(
      InputStream body, Instant deadline, FailureReason reason, String message) {
    Body bounded = new Body(body, deadline, reason, message);
    long delay = Math.max(0, Duration.between(clock.instant(), deadline).toMillis());
    bounded.expiry = scheduler.schedule(bounded::expire, delay, TimeUnit.MILLISECONDS);
    return bounded;
  }

  private final class Body extends FilterInputStream {
    private final Instant deadline;
    private final FailureReason reason;
    private final String message;
    private volatile ScheduledFuture<?> expiry;
    private volatile boolean expired;

    Body(InputStream in, Instant deadline, FailureReason reason, String message) {
      super(in);
      this.deadline = deadline;
      this.reason = reason;
      this.message = message;
    }

    void expire() {
      expired = true;
      try {
        in.close();
      } catch (IOException ignored) {
        // the read it wakes fails with the timeout either way
      }
    }

    @Override
    public int read() throws IOException {
      check();
      try {
        return in.read();
      } catch (IOException e) {
        throw failure(e);
      }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      check();
      try {
        return in.read(buffer, offset, length);
      } catch (IOException e) {
        throw failure(e);
      }
    }

    @Override
    public long skip(long n) throws IOException {
      check();
      try {
        return in.skip(n);
      } catch (IOException e) {
        throw failure(e);
      }
    }

    @Override
    public void close() throws IOException {
      ScheduledFuture<?> scheduled = expiry;
      if (scheduled != null) {
        scheduled.cancel(false);
      }
      in.close();
    }

    private void check() {
      if (expired || clock.instant().isAfter(deadline)) {
        throw timedOut();
      }
    }

    /** A read the expiry woke fails with the timeout, not with the closed stream. */
    private IOException failure(IOException e) {
      if (expired) {
        throw timedOut();
      }
      return e;
    }

    private SourceException timedOut() {
      return new SourceException(reason, message);
    }
  }
}
