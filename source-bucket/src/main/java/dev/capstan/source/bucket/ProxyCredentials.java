package dev.capstan.source.bucket;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.util.Locale;
import java.util.Map;

/**
 * When a proxy Secret's credentials can be used. They travel as the {@code Proxy-Authorization}
 * header of an https tunnel's {@code CONNECT} (see {@link BucketClients}); java.net.http leaves a
 * request's own proxy header off a plain http request through a proxy, and an authenticator would
 * drop the request's signature, so a plain http endpoint through a proxy with credentials is
 * refused by name, and so is a JVM whose {@code jdk.http.auth.tunneling.disabledSchemes} still
 * disables Basic (capstan's main clears it).
 */
final class ProxyCredentials {
  static final String TUNNELING_DISABLED_SCHEMES = "jdk.http.auth.tunneling.disabledSchemes";

  private ProxyCredentials() {}

  static void check(Map<String, byte[]> proxy, S3Endpoint endpoint) {
    if (!proxy.containsKey("address")
        || (!proxy.containsKey("username") && !proxy.containsKey("password"))) {
      return; // no proxy, a direct one, or a Secret BucketClients refuses by name
    }
    if (!endpoint.scheme().equals("https")) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "the proxy secret's username and password are used for an https endpoint only; "
              + "spec.insecure sends plain http, which cannot carry them");
    }
    String disabled = System.getProperty(TUNNELING_DISABLED_SCHEMES);
    if (disabled == null || disabled.toLowerCase(Locale.ROOT).contains("basic")) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "the proxy secret's username and password need Basic for tunnels, which this JVM "
              + "disables ("
              + TUNNELING_DISABLED_SCHEMES
              + ")");
    }
  }
}
