package dev.capstan.source.git.transport;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.sshd.ServerKeyDatabase;

/**
 * Verifies SSH host keys against the {@code known_hosts} text of a Secret, and nothing else: a host
 * that is not listed, or listed with another key, is rejected. Never learns new keys.
 */
final class KnownHosts implements ServerKeyDatabase {

  private record Entry(KnownHostEntry host, PublicKey key) {}

  private final List<Entry> entries;
  private final AtomicReference<String> rejectedHost = new AtomicReference<>();

  private KnownHosts(List<Entry> entries) {
    this.entries = entries;
  }

  /** Parses known_hosts lines; {@code @revoked} and unreadable lines are dropped. */
  static KnownHosts parse(String text) {
    List<Entry> entries = new ArrayList<>();
    if (text != null) {
      try {
        for (KnownHostEntry e :
            KnownHostEntry.readKnownHostEntries(new BufferedReader(new StringReader(text)))) {
          if (e.getMarker() != null || e.getKeyEntry() == null) {
            continue; // @revoked / @cert-authority lines grant nothing here
          }
          entries.add(
              new Entry(
                  e,
                  e.getKeyEntry()
                      .resolvePublicKey(null, Map.of(), PublicKeyEntryResolver.IGNORING)));
        }
      } catch (IOException | GeneralSecurityException | RuntimeException e) {
        throw new SourceException(
            FailureReason.INVALID_SECRET,
            "the secret's known_hosts could not be read: " + e.getClass().getSimpleName());
      }
    }
    entries.removeIf(e -> e.key() == null);
    return new KnownHosts(List.copyOf(entries));
  }

  /** The host whose key was rejected during this fetch, or null. */
  String rejectedHost() {
    return rejectedHost.get();
  }

  @Override
  public List<PublicKey> lookup(
      String connectAddress, InetSocketAddress remoteAddress, Configuration config) {
    HostPort hp = HostPort.of(connectAddress, remoteAddress);
    return entries.stream()
        .filter(e -> e.host().isHostMatch(hp.host(), hp.port()))
        .map(Entry::key)
        .toList();
  }

  @Override
  public boolean accept(
      String connectAddress,
      InetSocketAddress remoteAddress,
      PublicKey serverKey,
      Configuration config,
      CredentialsProvider provider) {
    boolean known =
        lookup(connectAddress, remoteAddress, config).stream()
            .anyMatch(k -> KeyUtils.compareKeys(k, serverKey));
    if (!known) {
      rejectedHost.set(HostPort.of(connectAddress, remoteAddress).display());
    }
    return known;
  }

  /** The host and port a connection was made to; {@code connectAddress} may be {@code [h]:p}. */
  record HostPort(String host, int port) {
    static HostPort of(String connectAddress, InetSocketAddress remote) {
      String a = connectAddress == null ? "" : connectAddress;
      if (a.startsWith("[") && a.contains("]:")) {
        int close = a.indexOf("]:");
        return new HostPort(a.substring(1, close), Integer.parseInt(a.substring(close + 2)));
      }
      int port = remote == null ? 22 : remote.getPort();
      String host = a.isEmpty() && remote != null ? remote.getHostString() : a;
      return new HostPort(host, port);
    }

    String display() {
      return port == 22 ? host : "[" + host + "]:" + port;
    }
  }
}
