package dev.capstan.engine.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A raw client on loopback that sends part of a request and then stalls (or trickles). */
public final class SlowClient implements AutoCloseable {
  private final Socket socket;

  private SlowClient(Socket socket) {
    this.socket = socket;
  }

  /**
   * Connects from {@code from} (any 127.x address is loopback on Linux) and sends {@code partial}.
   */
  public static SlowClient connect(InetAddress from, int port, String partial) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(from, 0));
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
    SlowClient client = new SlowClient(socket);
    client.send(partial);
    return client;
  }

  public static SlowClient connect(int port, String partial) throws IOException {
    return connect(InetAddress.getLoopbackAddress(), port, partial);
  }

  /** Sends more of the request; false if the server has closed the connection. */
  public boolean send(String more) {
    try {
      socket.getOutputStream().write(more.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** True if the server closes the connection (end of stream or reset) within {@code wait}. */
  public boolean closedByServerWithin(Duration wait) throws IOException {
    socket.setSoTimeout((int) wait.toMillis());
    InputStream in = socket.getInputStream();
    try {
      while (true) {
        if (in.read() < 0) {
          return true;
        }
      }
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
