package dev.capstan.engine.ops.events;

import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records Kubernetes Events about Capstan's objects (a new revision applied, a failure, a prune),
 * correlated as Kubernetes does it: repeats update one Event's count, floods are combined and rate
 * limited (see {@link EventCorrelator}).
 *
 * <p>{@link #record} never blocks the caller nor throws for an API failure: Events are written by
 * one background thread, in order; when the API server is unreachable they are logged and dropped,
 * since an Event is a notice, not state. Messages are sanitized (credentials in URLs masked, length
 * capped) but callers must still never put Secret values in them.
 */
public final class EventRecorder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final int QUEUE_CAPACITY = 1000;
  private static final Duration DROPS_REPORTED_EVERY = Duration.ofSeconds(30);

  private final EventSink sink;
  private final EventCorrelator correlator;
  private final ExecutorService writer;
  private final String component;
  private final DroppedEvents drops;

  EventRecorder(
      EventSink sink,
      EventCorrelator correlator,
      ExecutorService writer,
      String component,
      DroppedEvents drops) {
    this.sink = sink;
    this.correlator = correlator;
    this.writer = writer;
    this.component = component;
    this.drops = drops;
  }

  /** A recorder writing through {@code client} as {@code component} (e.g. "capstan"). */
  public static EventRecorder create(KubernetesClient client, String component, Clock clock) {
    DroppedEvents drops = new DroppedEvents(clock, DROPS_REPORTED_EVERY);
    return new EventRecorder(
        new KubernetesEventSink(client),
        new EventCorrelator(clock, EventCorrelator.Limits.defaults()),
        writer(QUEUE_CAPACITY, drops),
        component,
        drops);
  }

  /**
   * One thread writing in order, {@code capacity} Events queued at most: what comes while the queue
   * is full is dropped and counted; once closed, {@link #record} is refused as before.
   */
  static ThreadPoolExecutor writer(int capacity, DroppedEvents drops) {
    return new ThreadPoolExecutor(
        1,
        1,
        0,
        TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(capacity),
        r -> {
          Thread t = new Thread(r, "capstan-events");
          t.setDaemon(true);
          return t;
        },
        (r, executor) -> {
          if (executor.isShutdown()) {
            throw new RejectedExecutionException("the event recorder is closed");
          }
          drops.dropped().ifPresent(n -> reportDrops(n, capacity));
        });
  }

  private static void reportDrops(long count, int capacity) {
    LOG.warn(
        "event queue full ({} pending): {} event(s) dropped since the last such message",
        capacity,
        count);
  }

  /** Records an event of the reason's usual type. */
  public void record(HasMetadata object, EventReason reason, String message) {
    record(object, reason.defaultType(), reason, message);
  }

  /** Records an event about {@code object}; returns at once. */
  public void record(HasMetadata object, EventType type, EventReason reason, String message) {
    InvolvedObject involved = InvolvedObject.of(object);
    Optional<CorrelatedEvent> event =
        correlator.correlate(involved, type, reason, MessageSanitizer.sanitize(message));
    if (event.isEmpty()) {
      LOG.debug("event {} on {} dropped by the rate limit", reason.apiValue(), involved);
      return;
    }
    try {
      writer.execute(() -> write(event.get()));
    } catch (RejectedExecutionException e) {
      LOG.debug("event {} on {} not written: recorder closed", reason.apiValue(), involved);
    }
  }

  private void write(CorrelatedEvent event) {
    drops.unreported().ifPresent(n -> reportDrops(n, QUEUE_CAPACITY));
    try {
      if (event.isNew() || !sink.update(event)) {
        if (!event.isNew()) {
          // The Event expired on the server; start a fresh one.
          correlator.forget(event);
        }
        sink.create(event, component);
      }
    } catch (KubernetesClientException e) {
      LOG.warn(
          "could not write event {} on {}: {} (HTTP {})",
          event.reason().apiValue(),
          event.object(),
          ApiErrors.reason(e),
          e.getCode());
    } catch (RuntimeException e) {
      LOG.warn(
          "could not write event {} on {}: {}",
          event.reason().apiValue(),
          event.object(),
          e.toString());
    }
  }

  /** Writes what is queued (waiting up to 5 s), then stops. */
  @Override
  public void close() {
    writer.shutdown();
    try {
      if (!writer.awaitTermination(5, TimeUnit.SECONDS)) {
        writer.shutdownNow();
      }
    } catch (InterruptedException e) {
      writer.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
