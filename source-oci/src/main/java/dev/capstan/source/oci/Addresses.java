package dev.capstan.source.oci;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Set;

/**
 * Addresses an artifact server has no reason to have, which a URL under no allow-listed prefix must
 * not reach: this machine (loopback, {@code 0.0.0.0/8}, the unspecified address), link-local
 * ({@code 169.254.0.0/16}, {@code fe80::/10}, where clouds serve instance metadata and
 * credentials), multicast and broadcast, and the metadata services clouds put elsewhere (AWS's
 * {@code fd00:ec2::254}, Azure's {@code 168.63.129.16}, Alibaba's {@code 100.100.100.200}). An IPv4
 * address inside IPv6 (IPv4-compatible or NAT64 {@code 64:ff9b::/96}) is judged as that IPv4
 * address. Private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) are allowed: in-cluster services,
 * where artifact servers run, have them.
 */
final class Addresses {
  private static final Set<String> METADATA =
      Set.of("168.63.129.16", "100.100.100.200", "fd00:ec2:0:0:0:0:0:254");

  private Addresses() {}

  static boolean refused(InetAddress address) {
    if (address.isLoopbackAddress()
        || address.isLinkLocalAddress()
        || address.isAnyLocalAddress()
        || address.isMulticastAddress()
        || METADATA.contains(address.getHostAddress().replaceAll("%.*", ""))) {
      return true;
    }
    byte[] bytes = address.getAddress();
    if (address instanceof Inet4Address) {
      return bytes[0] == 0 || Arrays.equals(bytes, new byte[] {-1, -1, -1, -1});
    }
    return address instanceof Inet6Address && embeddedIpv4Refused(bytes);
  }

  /** The IPv4 address an IPv4-compatible ({@code ::a.b.c.d}) or NAT64 address carries. */
  private static boolean embeddedIpv4Refused(byte[] bytes) {
    byte[] nat64 = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
    byte[] head = Arrays.copyOf(bytes, 12);
    if (!Arrays.equals(head, new byte[12]) && !Arrays.equals(head, nat64)) {
      return false;
    }
    try {
      return refused(InetAddress.getByAddress(Arrays.copyOfRange(bytes, 12, 16)));
    } catch (UnknownHostException e) {
      return true; // four bytes are always an address
    }
  }
}
