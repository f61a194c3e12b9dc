package dev.capstan.source.oci;

import dev.capstan.source.core.RecentlyUsed;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLHandshakeException;

/**
 * Whether a registry that may be spoken to in plain http (an insecure source, or one on loopback)
 * speaks TLS on its port, as Flux's client decides: https when a TLS request is answered, else
 * http. The answer is remembered per source only: a probe one tenant's source made (through its own
 * proxy and TLS settings, or while the registry was down) never decides how another tenant's
 * credentials travel; and it is forgotten when that source's pull fails, so that a probe that
 * failed for a passing reason is asked again. At most {@link #MAX} are kept.
 */
final class SchemeProbes {
  static final int MAX = 1024;

  private final Map<String, String> schemes = new RecentlyUsed<>(MAX);

  /** The scheme of {@code registry} for the source {@code sourceKey}, probed unless known. */
  String scheme(String sourceKey, String registry, HttpClient http, Duration timeout) {
    String key = sourceKey + "\n" + registry;
    synchronized (schemes) {
      String known = schemes.get(key);
      if (known != null) {
        return known;
      }
    }
    String probed = probe(registry, http, timeout);
    synchronized (schemes) {
      schemes.put(key, probed);
    }
    return probed;
  }

  /** Forgets what was learnt for {@code sourceKey}'s registries. */
  void forget(String sourceKey) {
    synchronized (schemes) {
      schemes.keySet().removeIf(k -> k.startsWith(sourceKey + "\n"));
    }
  }

  private static String probe(String registry, HttpClient http, Duration timeout) {
    try {
      HttpRequest ping =
          HttpRequest.newBuilder(URI.create("https://" + registry + "/v2/"))
              .timeout(timeout.isNegative() || timeout.isZero() ? Duration.ofSeconds(1) : timeout)
              .GET()
              .build();
      // Answered once the headers arrive: the body is closed unread, however slowly it comes.
      RegistryClient.close(http.send(ping, HttpResponse.BodyHandlers.ofInputStream()));
      return "https";
    } catch (SSLHandshakeException e) {
      return "https"; // it speaks TLS; the certificate is the pull's to judge
    } catch (IOException e) {
      return "http";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "https";
    }
  }
}
