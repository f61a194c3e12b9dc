package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HostAllowListTest {
  private static InetSocketAddress at(String ip) throws Exception {
    return new InetSocketAddress(InetAddress.getByName(ip), 9595);
  }

  @Test
  void loopbackHostsAreServedOthersRefused() throws Exception {
    HostAllowList hosts = HostAllowList.of(at("127.0.0.1"), List.of());

    assertEquals(Optional.empty(), hosts.refuse("127.0.0.1:9595"));
    assertEquals(Optional.empty(), hosts.refuse("127.0.0.2"));
    assertEquals(Optional.empty(), hosts.refuse("localhost:9595"));
    assertEquals(Optional.empty(), hosts.refuse("LOCALHOST.:9595"));
    assertEquals(Optional.empty(), hosts.refuse("[::1]:9595"));
    assertEquals(Optional.empty(), hosts.refuse("[0:0:0:0:0:0:0:1]:9595"));
    assertTrue(hosts.refuse("evil.example:9595").isPresent(), "a rebound DNS name");
    assertTrue(hosts.refuse("127.0.0.1.evil.example").isPresent());
    assertTrue(hosts.refuse("localhost.evil.example").isPresent());
    assertTrue(hosts.refuse("999.0.0.1").isPresent(), "no address, and never looked up");
    assertTrue(hosts.refuse("").isPresent());
    assertTrue(hosts.refuse(null).isPresent());
  }

  @Test
  void remoteAccessKeepsTheListenAddressAndTheGivenNamesOnly() throws Exception {
    HostAllowList hosts =
        HostAllowList.of(at("10.1.2.3"), List.of("Capstan.Example", "[fd00::5]", "192.0.2.7"));

    assertEquals(Optional.empty(), hosts.refuse("10.1.2.3:9595"));
    assertEquals(Optional.empty(), hosts.refuse("capstan.example:9595"));
    assertEquals(Optional.empty(), hosts.refuse("capstan.example.:9595"));
    assertEquals(Optional.empty(), hosts.refuse("[fd00:0:0:0:0:0:0:5]:9595"));
    assertEquals(Optional.empty(), hosts.refuse("192.0.2.7"));
    assertEquals(Optional.empty(), hosts.refuse("127.0.0.1:9595"), "loopback stays");
    String refused = hosts.refuse("rebound.example:9595").orElseThrow();
    assertTrue(refused.contains("--allow-host"), refused);
    assertFalse(refused.contains("rebound.example"), "the header is not repeated: " + refused);
    assertTrue(hosts.refuse("10.1.2.4:9595").isPresent());
    assertTrue(hosts.refuse("other.capstan.example").isPresent());
  }

  @Test
  void aWildcardAddressAllowsTheMachinesAddressesButNoName() throws Exception {
    HostAllowList hosts = HostAllowList.of(at("0.0.0.0"), List.of());

    assertEquals(Optional.empty(), hosts.refuse("127.0.0.1:9595"));
    assertTrue(hosts.refuse("rebound.example:9595").isPresent());
    assertTrue(hosts.refuse("0.0.0.0:9595").isPresent(), "no page is served from 0.0.0.0");
  }
}
