package dev.capstan.cli.faults;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP proxy on loopback in front of a server (the Git server, the API server) that injects faults
 * on demand: down (every connection reset, new ones too), black hole (connections held, nothing
 * forwarded until it heals, as a partition that TCP rides out; what a client sent before it went
 * away is lost), slow (the server's bytes trickle at one a second), 500s (an HTTP error before the
 * server is asked, on new connections and on those kept alive from before) and truncated answers
 * (each connection cut after its first kilobyte from the server).
 */
public final class FaultyProxy implements AutoCloseable {
  /** What the proxy does to the traffic. */
  public enum Mode {
    PASS,
    DOWN,
    BLACK_HOLE,
    SLOW,
    ERROR_500,
    TRUNCATE
  }

  private static final int TRUNCATED_AFTER = 1024;
  private static final byte[] ERROR_500 =
      ("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket server;
  private final String targetHost;
  private final int targetPort;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "faulty-proxy");
            t.setDaemon(true);
            return t;
          });
  private final Object modeChanged = new Object();
  private volatile Mode mode = Mode.PASS;

  private FaultyProxy(ServerSocket server, String targetHost, int targetPort) {
    this.server = server;
    this.targetHost = targetHost;
    this.targetPort = targetPort;
  }

  /** A proxy on a free loopback port forwarding to {@code host:port}. */
  public static FaultyProxy start(String host, int port) throws IOException {
    FaultyProxy proxy =
        new FaultyProxy(new ServerSocket(0, 200, InetAddress.getLoopbackAddress()), host, port);
    proxy.threads.execute(proxy::accept);
    return proxy;
  }

  public int port() {
    return server.getLocalPort();
  }

  public Mode mode() {
    return mode;
  }

  /** Switches the fault; {@link Mode#DOWN} also resets every connection open now. */
  public void set(Mode next) {
    synchronized (modeChanged) {
      mode = next;
      modeChanged.notifyAll();
    }
    if (next == Mode.DOWN) {
      open.forEach(this::reset);
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        threads.execute(() -> serve(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    open.add(client);
    try {
      Mode now = mode;
      if (now == Mode.DOWN) {
        reset(client);
      } else if (now == Mode.ERROR_500) {
        answer500(client);
      } else {
        // A black hole answers nothing, not even by reaching the server, until it heals.
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        if (!holdWhileBlackHoled(client, held)) {
          reset(client);
          return;
        }
        Socket upstream = new Socket(targetHost, targetPort);
        open.add(upstream);
        try {
          upstream.getOutputStream().write(held.toByteArray());
        } catch (IOException e) {
          reset(upstream);
          throw e;
        }
        threads.execute(() -> pump(client, upstream, false));
        pump(upstream, client, true);
      }
    } catch (IOException e) {
      reset(client);
    }
  }

  private void answer500(Socket client) throws IOException {
    // Read what the client sent first, so it sees the answer rather than a reset.
    client.setSoTimeout(2000);
    try {
      client.getInputStream().read(new byte[16384]);
    } catch (IOException e) {
      // nothing read: answer all the same
    }
    client.getOutputStream().write(ERROR_500);
    close(client);
  }

  /** Copies {@code from} to {@code to} under the current fault; closes both at the end. */
  private void pump(Socket from, Socket to, boolean fromServer) {
    byte[] buffer = new byte[16384];
    long sent = 0;
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int read;
      while ((read = in.read(buffer)) >= 0) {
        // What the client sends while black-holed waits here (one read of the mode: a black hole
        // that starts now is held the same way); the server's bytes wait in awaitNoBlackHole.
        ByteArrayOutputStream late = new ByteArrayOutputStream(0);
        if (fromServer) {
          awaitNoBlackHole();
        } else if (!holdWhileBlackHoled(from, late)) {
          reset(to); // what the client sent is lost with it
          break;
        }
        if (!fromServer && mode == Mode.ERROR_500) {
          // A request on a connection kept alive from before is answered 500 too, as a failing
          // server would; else a pooled connection would ride the fault out.
          from.getOutputStream().write(ERROR_500);
          break;
        }
        if (fromServer && mode == Mode.TRUNCATE && sent + read > TRUNCATED_AFTER) {
          out.write(buffer, 0, (int) Math.max(0, TRUNCATED_AFTER - sent));
          break;
        }
        int written = fromServer ? trickle(buffer, read, out) : 0;
        out.write(buffer, written, read - written);
        late.writeTo(out);
        out.flush();
        sent += read;
      }
    } catch (IOException e) {
      // one side closed or was reset: the other goes too
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      close(from);
      close(to);
    }
  }

  /** While slow, writes one byte a second; returns how many it wrote. */
  private int trickle(byte[] buffer, int length, OutputStream out)
      throws IOException, InterruptedException {
    int written = 0;
    while (mode == Mode.SLOW && written < length) {
      out.write(buffer[written++]);
      out.flush();
      Thread.sleep(1000);
    }
    return written;
  }

  /**
   * While black-holed, keeps what the client sends in {@code held}; false if the client went away
   * meanwhile. Its bytes are then lost: a partition that outlives a process leaves nobody to
   * retransmit them (the kernel gives an orphaned socket's data up after a few retries), so only a
   * client still there when the partition heals has them delivered, late, as TCP would.
   */
  private boolean holdWhileBlackHoled(Socket client, ByteArrayOutputStream held) {
    if (mode != Mode.BLACK_HOLE) {
      return true;
    }
    byte[] buffer = new byte[16384];
    try {
      client.setSoTimeout(100);
      while (mode == Mode.BLACK_HOLE) {
        try {
          int read = client.getInputStream().read(buffer);
          if (read < 0) {
            return false;
          }
          held.write(buffer, 0, read);
        } catch (SocketTimeoutException stillThere) {
          // nothing sent: the client is still there
        }
      }
      client.setSoTimeout(0);
      return true;
    } catch (IOException gone) {
      return false;
    }
  }

  private void awaitNoBlackHole() throws InterruptedException {
    synchronized (modeChanged) {
      while (mode == Mode.BLACK_HOLE) {
        modeChanged.wait();
      }
    }
  }

  private void close(Socket socket) {
    open.remove(socket);
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  /** Closes with a reset (RST), as a dropped connection looks to its peer. */
  private void reset(Socket socket) {
    open.remove(socket);
    try {
      socket.setSoLinger(true, 0);
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  /** How many connections (clients' and the server's) the proxy holds open now. */
  int openConnections() {
    return open.size();
  }

  @Override
  public void close() throws IOException {
    set(Mode.PASS);
    server.close();
    open.forEach(this::reset);
    threads.shutdownNow();
  }
}
