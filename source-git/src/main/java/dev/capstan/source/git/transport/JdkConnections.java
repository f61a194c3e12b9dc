package dev.capstan.source.git.transport;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.HttpConnectionFactory;

/**
 * The JDK's HTTP connections as {@link JdkConnection}s, whose TLS socket factory can be set from
 * outside (JGit's own connection class keeps its JDK connection to itself).
 */
final class JdkConnections implements HttpConnectionFactory {

  @Override
  public HttpConnection create(URL url) throws IOException {
    return create(url, null);
  }

  @Override
  public HttpConnection create(URL url, Proxy proxy) throws IOException {
    return new JdkConnection(
        (HttpURLConnection) (proxy == null ? url.openConnection() : url.openConnection(proxy)));
  }
}
