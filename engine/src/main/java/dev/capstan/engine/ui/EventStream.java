package dev.capstan.engine.ui;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Server-Sent Events to every open page: one {@code change} event shortly after the watches report
 * something, coalesced so that a burst of changes costs each page one fetch. A page that is still
 * receiving the last event gets the next one when that is done; nothing queues up per page.
 */
final class EventStream implements AutoCloseable {
  static final Duration COALESCE = Duration.ofMillis(150);
  static final Duration HEARTBEAT = Duration.ofSeconds(15);

  private final ScheduledExecutorService scheduler;
  private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean pending = new AtomicBoolean();
  private final AtomicLong version = new AtomicLong();

  EventStream(ScheduledExecutorService scheduler) {
    this.scheduler = scheduler;
    scheduler.scheduleAtFixedRate(() -> broadcast(": keep-alive\n\n"), HEARTBEAT.toMillis(), HEARTBEAT.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** Something changed: tell every page soon. */
  void changed() {
    if (pending.compareAndSet(false, true)) {
      scheduler.schedule(() -> {
        pending.set(false);
        broadcast("event: change\ndata: " + version.incrementAndGet() + "\n\n");
      }, COALESCE.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  int subscribers() {
    return subscribers.size();
  }

  /** Takes over the request as an event stream until the client goes away. */
  void subscribe(Response response, Callback callback) {
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    Subscriber subscriber = new Subscriber(response, callback);
    subscribers.add(subscriber);
    subscriber.send("retry: 1000\nevent: hello\ndata: " + version.get() + "\n\n");
  }

  private void broadcast(String message) {
    subscribers.forEach(s -> s.send(message));
  }

  @Override
  public void close() {
    subscribers.forEach(s -> s.end());
    subscribers.clear();
  }

  /** One page's stream: at most one write in flight, and the latest message waiting behind it. */
  private final class Subscriber implements Callback {
    private final Response response;
    private final Callback done;
    private boolean writing;
    private String waiting;

    Subscriber(Response response, Callback done) {
      this.response = response;
      this.done = done;
    }

    synchronized void send(String message) {
      if (writing) {
        waiting = message;
        return;
      }
      writing = true;
      response.write(false, ByteBuffer.wrap(message.getBytes(StandardCharsets.UTF_8)), this);
    }

    @Override
    public void succeeded() {
      String next;
      synchronized (this) {
        writing = false;
        next = waiting;
        waiting = null;
      }
      if (next != null) {
        send(next);
      }
    }

    @Override
    public void failed(Throwable x) {
      subscribers.remove(this);
      done.failed(x);
    }

    void end() {
      done.succeeded();
    }
  }
}
