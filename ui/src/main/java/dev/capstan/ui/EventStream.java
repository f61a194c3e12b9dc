package dev.capstan.ui;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Server-Sent Events to every open page: one {@code change} event shortly after the watches report
 * something, coalesced so that a burst of changes costs each page one fetch. The event names the
 * objects that changed ({@code Kind/namespace/name}, or {@value #EVERYTHING} for many or unknown),
 * so that a Kustomization's page, which reads its inventory from the API server, fetches only when
 * its Kustomization changed. A page that is still receiving the last event gets the next one when
 * that is done; nothing queues up per page.
 */
final class EventStream implements AutoCloseable {
  static final Duration COALESCE = Duration.ofMillis(150);
  static final Duration HEARTBEAT = Duration.ofSeconds(15);
  static final String EVERYTHING = "*";
  static final int MAX_KEYS = 100;

  private final ScheduledExecutorService scheduler;
  private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean pending = new AtomicBoolean();
  private final Set<String> changedKeys = new LinkedHashSet<>();
  private final AtomicLong version = new AtomicLong();

  EventStream(ScheduledExecutorService scheduler) {
    this.scheduler = scheduler;
    scheduler.scheduleAtFixedRate(
        () -> broadcast(": keep-alive\n\n"),
        HEARTBEAT.toMillis(),
        HEARTBEAT.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** The object named {@code key} changed: tell every page soon. */
  void changed(String key) {
    synchronized (changedKeys) {
      changedKeys.add(changedKeys.size() < MAX_KEYS ? key : EVERYTHING);
    }
    if (pending.compareAndSet(false, true)) {
      scheduler.schedule(
          () -> {
            pending.set(false);
            broadcast(
                "event: change\ndata: " + message(version.incrementAndGet(), drainKeys()) + "\n\n");
          },
          COALESCE.toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  private List<String> drainKeys() {
    synchronized (changedKeys) {
      List<String> keys =
          changedKeys.contains(EVERYTHING) ? List.of(EVERYTHING) : List.copyOf(changedKeys);
      changedKeys.clear();
      return keys;
    }
  }

  /** {@code {"version":N,"keys":[...]}}; keys are Kubernetes names, so quoting them is enough. */
  static String message(long version, List<String> keys) {
    StringBuilder json = new StringBuilder("{\"version\":").append(version).append(",\"keys\":[");
    for (int i = 0; i < keys.size(); i++) {
      json.append(i == 0 ? "" : ",")
          .append('"')
          .append(keys.get(i).replaceAll("[\\\\\"\\r\\n]", ""))
          .append('"');
    }
    return json.append("]}").toString();
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
