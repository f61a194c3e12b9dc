package dev.capstan.engine.remote;

import java.util.function.Supplier;

/**
 * How to reach and authenticate to a remote API server, taken from inline data only. The
 * credentials never appear in {@link #toString()}.
 *
 * @param server the API server's URL
 * @param caData base64 PEM of the certificate authorities to trust, or null for the JVM's
 * @param token a bearer token source, or null
 */
record RemoteConnection(
    String server,
    String caData,
    boolean insecureSkipTlsVerify,
    String clientCertData,
    String clientKeyData,
    Supplier<String> token,
    String username,
    String password) {

  @Override
  public String toString() {
    return "RemoteConnection[" + server + "]";
  }
}
