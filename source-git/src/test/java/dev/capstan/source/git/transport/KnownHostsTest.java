package dev.capstan.source.git.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.testing.SshGitServer;
import java.net.InetSocketAddress;
import java.security.KeyPair;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.Test;

class KnownHostsTest {

  @Test
  void acceptsOnlyListedHostWithListedKey() throws Exception {
    KeyPair key = SshGitServer.newKeyPair();
    KeyPair other = SshGitServer.newKeyPair();
    KnownHosts hosts =
        KnownHosts.parse(
            "# comment\ngit.example.com "
                + PublicKeyEntry.toString(key.getPublic())
                + "\n[10.0.0.1]:2222 "
                + PublicKeyEntry.toString(key.getPublic())
                + "\n");
    InetSocketAddress a22 = InetSocketAddress.createUnresolved("git.example.com", 22);
    assertTrue(hosts.accept("git.example.com", a22, key.getPublic(), null, null));
    assertFalse(hosts.accept("git.example.com", a22, other.getPublic(), null, null));
    assertEquals("git.example.com", hosts.rejectedHost());
    InetSocketAddress a2222 = InetSocketAddress.createUnresolved("10.0.0.1", 2222);
    assertTrue(hosts.accept("[10.0.0.1]:2222", a2222, key.getPublic(), null, null));
    assertFalse(
        hosts.accept(
            "10.0.0.1",
            InetSocketAddress.createUnresolved("10.0.0.1", 22),
            key.getPublic(),
            null,
            null),
        "port is part of the host's identity");
    assertFalse(
        KnownHosts.parse(null).accept("git.example.com", a22, key.getPublic(), null, null),
        "no known_hosts means no host is trusted");
  }

  @Test
  void garbageIsAnInvalidSecret() {
    SourceException e =
        assertThrows(SourceException.class, () -> KnownHosts.parse("host ssh-rsa !!!notbase64"));
    assertEquals(FailureReason.INVALID_SECRET, e.reason());
  }
}
