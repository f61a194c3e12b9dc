package dev.capstan.source;

import java.io.IOException;
import java.net.Proxy;
import java.net.URL;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLSocket;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.HttpStatus;
import org.apache.http.auth.AuthScope;
import org.apache.http.auth.ChallengeState;
import org.apache.http.auth.UsernamePasswordCredentials;
import org.apache.http.client.AuthCache;
import org.apache.http.client.ClientProtocolException;
import org.apache.http.client.CredentialsProvider;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpRequestBase;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.config.Registry;
import org.apache.http.config.RegistryBuilder;
import org.apache.http.conn.ClientConnectionManager;
import org.apache.http.conn.socket.ConnectionSocketFactory;
import org.apache.http.conn.socket.PlainConnectionSocketFactory;
import org.apache.http.conn.ssl.DefaultHostnameVerifier;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.conn.util.PublicSuffixMatcherLoader;
import org.apache.http.impl.auth.BasicScheme;
import org.apache.http.impl.client.BasicAuthCache;
import org.apache.http.impl.client.BasicCredentialsProvider;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.impl.conn.DefaultManagedHttpClientConnection;
import org.apache.http.impl.conn.PoolingHttpClientConnectionManager;
import org.apache.http.impl.execchain.TunnelRefusedException;
import org.apache.http.params.HttpParams;
import org.apache.http.protocol.HttpContext;
import org.apache.http.ssl.SSLContexts;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.HttpConnectionFactory;
import org.eclipse.jgit.transport.http.apache.HttpClientConnection;
import org.eclipse.jgit.util.HttpSupport;

/**
 * The HTTP connections of one fetch through a proxy that asks for credentials ({@code username}
 * and {@code password} of {@code spec.proxySecretRef}). The JDK's HTTP client takes proxy
 * credentials only from the process-wide {@link java.net.Authenticator}, where one tenant's would
 * serve another's fetch; here each fetch has its own Apache HttpClient that knows only its own
 * proxy's credentials. They go with Basic auth, pre-emptively, to the proxy only: on each plain
 * http request (which the proxy forwards) and on the {@code CONNECT} that opens an https tunnel,
 * never inside the tunnel.
 *
 * <p>What JGit's own connections do is kept: JGit's connect and read timeouts for each request,
 * redirects left to JGit (and so to {@link OriginBoundConnections}), the JVM's trusted
 * certificates with host name verification and JGit's TLS versions, no cookies. Connections never
 * log headers or bytes, whatever the logging configuration.
 */
final class AuthenticatingProxyConnections implements HttpConnectionFactory, AutoCloseable {

  private static final AtomicLong CONNECTION_IDS = new AtomicLong();

  private final HttpHost proxy;
  private final CloseableHttpClient client;
  private final CredentialsProvider credentials = new BasicCredentialsProvider();
  private final AuthCache preemptive = new BasicAuthCache();
  private final AtomicBoolean refused = new AtomicBoolean();

  AuthenticatingProxyConnections(ProxySettings settings) {
    this.proxy = new HttpHost(settings.host(), settings.port(), settings.tls() ? "https" : "http");
    credentials.setCredentials(new AuthScope(proxy),
        new UsernamePasswordCredentials(settings.username(), settings.password()));
    preemptive.put(proxy, new BasicScheme(ChallengeState.PROXY));
    this.client = HttpClients.custom()
        .setConnectionManager(new PoolingHttpClientConnectionManager(socketFactories(),
            (route, config) -> new DefaultManagedHttpClientConnection(
                "proxied-" + CONNECTION_IDS.incrementAndGet(), 8192)))
        .setProxy(proxy)
        .setDefaultCredentialsProvider(credentials)
        .disableRedirectHandling()
        .disableCookieManagement()
        .disableAutomaticRetries() // NetworkRetry decides what is retried
        .build();
  }

  @Override
  public HttpConnection create(URL url) throws IOException {
    return create(url, null);
  }

  /** The proxy argument is ignored: every request goes through this factory's proxy. */
  @Override
  public HttpConnection create(URL url, Proxy ignored) throws IOException {
    Request request = new Request();
    return new TimedConnection(new HttpClientConnection(url.toString(), null, request), request);
  }

  /** Whether the proxy answered 407 to this fetch's credentials. */
  boolean credentialsRefused() {
    return refused.get();
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException e) {
      // closing idle pooled connections: nothing to recover
    }
  }

  private static Registry<ConnectionSocketFactory> socketFactories() {
    SSLConnectionSocketFactory tls = new SSLConnectionSocketFactory(SSLContexts.createDefault(),
        new DefaultHostnameVerifier(PublicSuffixMatcherLoader.getDefault())) {
      @Override
      protected void prepareSocket(SSLSocket socket) throws IOException {
        super.prepareSocket(socket);
        HttpSupport.configureTLS(socket);
      }
    };
    return RegistryBuilder.<ConnectionSocketFactory>create()
        .register("http", PlainConnectionSocketFactory.getSocketFactory())
        .register("https", tls)
        .build();
  }

  /**
   * One JGit connection's view of the shared client: carries the timeouts JGit sets on that
   * connection (JGit's connection class applies them only to a client it builds itself).
   */
  private final class Request extends CloseableHttpClient {
    private volatile int connectTimeout = -1;
    private volatile int readTimeout = -1;

    @Override
    protected CloseableHttpResponse doExecute(HttpHost target, HttpRequest request,
        HttpContext unused) throws IOException {
      RequestConfig config = RequestConfig.custom()
          .setProxy(proxy)
          .setConnectTimeout(connectTimeout)
          .setSocketTimeout(readTimeout)
          .setRedirectsEnabled(false)
          .build();
      if (request instanceof HttpRequestBase base) {
        base.setConfig(config);
      }
      HttpClientContext context = HttpClientContext.create();
      context.setRequestConfig(config);
      context.setCredentialsProvider(credentials);
      context.setAuthCache(preemptive);
      try {
        CloseableHttpResponse response = client.execute(target, request, context);
        if (response.getStatusLine().getStatusCode() == HttpStatus.SC_PROXY_AUTHENTICATION_REQUIRED) {
          refused.set(true);
        }
        return response;
      } catch (ClientProtocolException e) {
        if (e.getCause() instanceof TunnelRefusedException tunnel && tunnel.getResponse()
            .getStatusLine().getStatusCode() == HttpStatus.SC_PROXY_AUTHENTICATION_REQUIRED) {
          refused.set(true);
        }
        throw e;
      }
    }

    @Override
    public void close() {
      // the shared client is closed with the fetch
    }

    @Override
    @Deprecated
    public HttpParams getParams() {
      return client.getParams();
    }

    @Override
    @Deprecated
    public ClientConnectionManager getConnectionManager() {
      return client.getConnectionManager();
    }
  }

  private static final class TimedConnection extends ForwardingConnection {
    private final Request request;

    TimedConnection(HttpConnection connection, Request request) {
      super(connection);
      this.request = request;
    }

    @Override
    public void setConnectTimeout(int timeout) {
      request.connectTimeout = timeout;
    }

    @Override
    public void setReadTimeout(int timeout) {
      request.readTimeout = timeout;
    }
  }
}
