package dev.capstan.source.git.transport;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.proxy.ProxySecret;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.eclipse.jgit.api.TransportCommand;
import org.eclipse.jgit.transport.SshTransport;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.TransportHttp;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.eclipse.jgit.transport.http.HttpConnectionFactory;
import org.eclipse.jgit.transport.sshd.SshdSessionFactory;
import org.eclipse.jgit.transport.sshd.SshdSessionFactoryBuilder;

/**
 * Applies one fetch's credentials to JGit commands: basic or bearer auth for HTTP(S), sent only to
 * the remote's own origin (never after a redirect elsewhere) and, unless the caller allows it,
 * never over plain http; for https a client certificate (also only to the remote's origin) and
 * extra trusted authorities; and for SSH a session factory that offers only the Secret's key, reads
 * no user configuration, and accepts only host keys listed in the Secret's known_hosts.
 */
public final class TransportSetup implements AutoCloseable {

  private final RemoteUrl url;
  private final Credentials credentials;
  private final KnownHosts knownHosts;
  private final SshdSessionFactory ssh;
  private final ProxySecret proxy;
  private final ProxyCredentialConnections authenticatingProxy;
  private final ProxyAuthenticators authenticators;
  private final TlsSettings tls;
  private final AtomicBoolean leftOrigin = new AtomicBoolean();

  private TransportSetup(
      RemoteUrl url,
      Credentials credentials,
      KnownHosts knownHosts,
      SshdSessionFactory ssh,
      ProxySecret proxy,
      ProxyAuthenticators authenticators,
      TlsSettings tls) {
    this.url = url;
    this.credentials = credentials;
    this.knownHosts = knownHosts;
    this.ssh = ssh;
    this.proxy = proxy;
    this.tls = tls;
    this.authenticatingProxy =
        proxy != null && proxy.hasCredentials()
            ? new ProxyCredentialConnections(proxy, authenticators.forProxy(proxy))
            : null;
    this.authenticators = authenticators;
  }

  /** Where this setup's proxy authenticators come from, for the setups of its submodules. */
  public ProxyAuthenticators proxyAuthenticators() {
    return authenticators;
  }

  public static TransportSetup create(
      RemoteUrl url,
      Map<String, byte[]> secretData,
      File sshHome,
      boolean credentialsOverPlainHttp) {
    return create(
        url, secretData, sshHome, credentialsOverPlainHttp, Map.of(), new ProxyAuthenticators());
  }

  /**
   * @param sshHome an empty directory standing in for the user's home, so that no {@code ~/.ssh}
   *     configuration, key or known_hosts of the process's user is used
   * @param credentialsOverPlainHttp whether basic auth and bearer tokens may go over http://
   * @throws SourceException when credentials would travel unencrypted, or the key is unreadable
   */
  public static TransportSetup create(
      RemoteUrl url,
      Map<String, byte[]> secretData,
      File sshHome,
      boolean credentialsOverPlainHttp,
      Map<String, byte[]> proxyData,
      ProxyAuthenticators authenticators) {
    ProxySecret proxy = ProxySecret.forUrlConnections(proxyData).orElse(null);
    if (proxy != null && !url.isHttp()) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.proxySecretRef applies to http(s) " + "URLs only, not to '" + url.display() + "'");
    }
    if (proxy != null
        && proxy.hasCredentials()
        && url.scheme() == UrlScheme.HTTPS
        && !ProxyCredentialConnections.basicAllowedForTunnels()) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "proxy credentials for an https remote "
              + "need Basic auth for proxy tunnels, which this JVM disables "
              + "(jdk.http.auth.tunneling.disabledSchemes)");
    }
    Credentials credentials = Credentials.from(secretData);
    if (url.scheme() == UrlScheme.HTTP && !credentialsOverPlainHttp) {
      refuseCredentialsOverPlainHttp(url, credentials);
    }
    if (!url.isSsh()) {
      // Client certificates and authorities matter to https alone, as in Flux.
      TlsSettings tls = url.scheme() == UrlScheme.HTTPS ? TlsSettings.from(secretData) : null;
      return new TransportSetup(url, credentials, null, null, proxy, authenticators, tls);
    }
    KnownHosts knownHosts = KnownHosts.parse(credentials.knownHosts());
    List<KeyPair> keys = loadIdentity(credentials);
    SshdSessionFactory factory =
        new SshdSessionFactoryBuilder()
            .setHomeDirectory(sshHome)
            .setSshDirectory(new File(sshHome, ".ssh"))
            .setConfigStoreFactory((home, configFile, localUser) -> null)
            .setDefaultKnownHostsFiles(dir -> List.of())
            .setDefaultIdentities(dir -> List.of())
            .setDefaultKeysProvider(dir -> keys)
            .setServerKeyDatabase((home, dir) -> knownHosts)
            .setPreferredAuthentications("publickey")
            .build(null);
    return new TransportSetup(url, credentials, knownHosts, factory, null, authenticators, null);
  }

  /** As Flux's Git client does by default: basic auth and bearer tokens only over https. */
  private static void refuseCredentialsOverPlainHttp(RemoteUrl url, Credentials credentials) {
    String what =
        credentials.bearerToken() != null
            ? "the secret's bearerToken"
            : credentials.hasBasicAuth()
                ? "the secret's username and password"
                : url.uri().getPass() != null ? "the password in the URL" : null;
    if (what != null) {
      throw new SourceException(
          FailureReason.INVALID_URL,
          what
              + " would be sent unencrypted to '"
              + url.display()
              + "': credentials are sent only over https, use an https:// URL");
    }
  }

  /** Configures a JGit command (ls-remote or fetch) to use these credentials. */
  public <C extends TransportCommand<C, ?>> C apply(C command) {
    if (credentials.hasBasicAuth()) {
      command.setCredentialsProvider(
          new UsernamePasswordCredentialsProvider(credentials.username(), credentials.password()));
    }
    return command.setTransportConfigCallback(this::configure);
  }

  private void configure(Transport transport) {
    if (transport instanceof TransportHttp http) {
      HttpConnectionFactory connections =
          authenticatingProxy != null
              ? authenticatingProxy
              : tls != null ? new JdkConnections() : http.getHttpConnectionFactory();
      http.setHttpConnectionFactory(
          new OriginBoundConnections(
              connections,
              url.uri(),
              () -> leftOrigin.set(true),
              authenticatingProxy != null || proxy == null ? null : proxy.proxy(),
              tls));
      if (credentials.bearerToken() != null) {
        http.setAdditionalHeaders(Map.of("Authorization", "Bearer " + credentials.bearerToken()));
      } else if (credentials.hasBasicAuth()) {
        // Saves the round trip of an unauthenticated request that is bound to get a 401.
        http.setPreemptiveBasicAuthentication(credentials.username(), credentials.password());
      }
    }
    if (transport instanceof SshTransport sshTransport && ssh != null) {
      sshTransport.setSshSessionFactory(ssh);
    }
  }

  /** The host whose SSH key was rejected during this fetch, or null. */
  public String rejectedHost() {
    return knownHosts == null ? null : knownHosts.rejectedHost();
  }

  /** Whether a redirect sent a request of this fetch to another origin, without credentials. */
  public boolean redirectedToAnotherOrigin() {
    return leftOrigin.get();
  }

  /**
   * Whether a server of this fetch asked for a TLS client certificate (known with TLS settings).
   */
  public boolean clientCertificateRequested() {
    return tls != null && tls.clientCertificateRequested();
  }

  /** Whether the Secret's TLS client certificate was offered to a server of this fetch. */
  public boolean clientCertificatePresented() {
    return tls != null && tls.clientCertificatePresented();
  }

  /** The proxy that refused this fetch's proxy credentials (407), or null. */
  public String proxyRefusingCredentials() {
    return authenticatingProxy != null && authenticatingProxy.credentialsRefused()
        ? proxy.display()
        : null;
  }

  boolean hostKeyRejected() {
    return rejectedHost() != null;
  }

  @Override
  public void close() {
    if (ssh != null) {
      ssh.close();
    }
  }

  private static List<KeyPair> loadIdentity(Credentials credentials) {
    if (credentials.identity() == null) {
      return List.of();
    }
    FilePasswordProvider passwords =
        credentials.passphrase() == null
            ? FilePasswordProvider.EMPTY
            : FilePasswordProvider.of(credentials.passphrase());
    List<KeyPair> keys = new ArrayList<>();
    try {
      Iterable<KeyPair> loaded =
          SecurityUtils.loadKeyPairIdentities(
              null,
              NamedResource.ofName("identity"),
              new ByteArrayInputStream(credentials.identity()),
              passwords);
      if (loaded != null) {
        loaded.forEach(keys::add);
      }
    } catch (Exception e) {
      throw new SourceException(
          FailureReason.INVALID_SECRET,
          "the secret's 'identity' private key could not be read (wrong passphrase or "
              + "unsupported format: "
              + e.getClass().getSimpleName()
              + ")");
    }
    if (keys.isEmpty()) {
      throw new SourceException(
          FailureReason.INVALID_SECRET, "the secret's 'identity' holds no private key");
    }
    return List.copyOf(keys);
  }
}
