package dev.capstan.ui;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The names a request's Host header may give: loopback ones, the address the view listens on (each
 * address of the machine when it listens on all of them) and names the user allowed. Any other name
 * is refused, so that a web site whose DNS name is rebound to this address gets nothing: its pages
 * would name the site in Host.
 *
 * @param names lower-case DNS names, without a trailing dot
 * @param addresses IP addresses, compared as addresses (IPv6 has several spellings)
 */
record HostAllowList(Set<String> names, Set<InetAddress> addresses) {
  private static final String IPV6_LITERAL = "[0-9a-fA-F:.]+";
  private static final String IPV4_LITERAL = "\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}";

  HostAllowList {
    names = Set.copyOf(names);
    addresses = Set.copyOf(addresses);
  }

  /**
   * @param listen the address the view listens on
   * @param allowed names given with {@code --allow-host} (DNS names or IP addresses)
   */
  static HostAllowList of(InetSocketAddress listen, List<String> allowed) {
    Set<String> names = new HashSet<>();
    Set<InetAddress> addresses = new HashSet<>();
    for (String name : allowed) {
      String normal = normalize(name);
      Optional<InetAddress> literal = literal(normal);
      if (literal.isPresent()) {
        addresses.add(literal.get());
      } else {
        names.add(normal);
      }
    }
    InetAddress ip = listen.getAddress();
    if (ip != null && ip.isAnyLocalAddress()) {
      addresses.addAll(machineAddresses());
    } else if (ip != null) {
      addresses.add(ip);
    }
    return new HostAllowList(names, addresses);
  }

  /** Why a request with this Host header is refused, or empty when it may be served. */
  Optional<String> refuse(String hostHeader) {
    if (hostHeader == null || hostHeader.isBlank()) {
      return Optional.of("no Host header");
    }
    String name = normalize(hostName(hostHeader));
    Optional<InetAddress> literal = literal(name);
    boolean allowed =
        literal.isPresent()
            ? literal.get().isLoopbackAddress() || addresses.contains(literal.get())
            : name.equals("localhost") || names.contains(name);
    // The header is not repeated: the answer goes to whatever page sent it.
    return allowed
        ? Optional.empty()
        : Optional.of(
            "the Host header names no address this view answers to: a loopback address, the"
                + " address it listens on, or a name given with --allow-host");
  }

  /** The host of a Host header: without its port, an IPv6 address without its brackets. */
  static String hostName(String hostHeader) {
    String host = hostHeader.trim();
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end < 0 ? host : host.substring(1, end);
    }
    int colon = host.lastIndexOf(':');
    return colon < 0 ? host : host.substring(0, colon);
  }

  private static String normalize(String name) {
    String lower = name.trim().toLowerCase(Locale.ROOT);
    if (lower.startsWith("[") && lower.endsWith("]")) {
      lower = lower.substring(1, lower.length() - 1);
    }
    return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
  }

  /**
   * The address an IP literal spells; empty for a DNS name, which is never looked up (that would
   * let the header make this process ask DNS, and a rebound name is what is refused here).
   */
  private static Optional<InetAddress> literal(String name) {
    try {
      if (name.matches(IPV4_LITERAL)) {
        byte[] octets = new byte[4];
        String[] parts = name.split("\\.");
        for (int i = 0; i < 4; i++) {
          int octet = Integer.parseInt(parts[i]);
          if (octet > 255) {
            return Optional.empty();
          }
          octets[i] = (byte) octet;
        }
        return Optional.of(InetAddress.getByAddress(octets));
      }
      if (name.contains(":") && name.matches(IPV6_LITERAL)) {
        // Starting with a hex digit or ':' and holding a ':', it is parsed as an IPv6 literal
        // and refused if it is none, never resolved.
        return Optional.of(InetAddress.getByName(name));
      }
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  private static Set<InetAddress> machineAddresses() {
    Set<InetAddress> all = new HashSet<>();
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        all.addAll(Collections.list(nic.getInetAddresses()));
      }
    } catch (SocketException e) {
      // No list of the machine's addresses: loopback and --allow-host names still work.
    }
    return all;
  }
}
