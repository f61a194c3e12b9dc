package dev.capstan.source.git.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.eclipse.jgit.util.HttpSupport;

/** TLS sockets of another factory, each set to the protocol versions JGit allows. */
final class JgitTlsSocketFactory extends SSLSocketFactory {

  private final SSLSocketFactory delegate;

  JgitTlsSocketFactory(SSLSocketFactory delegate) {
    this.delegate = delegate;
  }

  @Override
  public String[] getDefaultCipherSuites() {
    return delegate.getDefaultCipherSuites();
  }

  @Override
  public String[] getSupportedCipherSuites() {
    return delegate.getSupportedCipherSuites();
  }

  @Override
  public Socket createSocket() throws IOException {
    return configured(delegate.createSocket());
  }

  @Override
  public Socket createSocket(Socket s, String host, int port, boolean autoClose)
      throws IOException {
    return configured(delegate.createSocket(s, host, port, autoClose));
  }

  @Override
  public Socket createSocket(Socket s, InputStream consumed, boolean autoClose) throws IOException {
    return configured(delegate.createSocket(s, consumed, autoClose));
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return configured(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    return configured(delegate.createSocket(host, port, localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return configured(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return configured(delegate.createSocket(address, port, localAddress, localPort));
  }

  private static Socket configured(Socket socket) throws IOException {
    if (socket instanceof SSLSocket tls) {
      HttpSupport.configureTLS(tls);
    }
    return socket;
  }
}
