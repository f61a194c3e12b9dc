package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Which ExternalArtifact URLs the engine may download ({@code capstan run
 * --artifact-url-allow-prefix} and {@code --no-unlisted-artifact-urls}). Whoever may write an
 * ExternalArtifact's status names the URL, so without a rule the engine would send a GET to any
 * address it can reach, its own loopback and the cloud's metadata service included.
 *
 * <ul>
 *   <li>A URL under an allow-listed prefix is downloaded, whatever address its host has: the
 *       operator named it.
 *   <li>With prefixes given, or with {@code listedOnly}, a URL under none is refused.
 *   <li>Otherwise (the single-tenant default) any http(s) URL is downloaded unless its host
 *       resolves to an address no artifact server has reason to have ({@link Addresses}).
 * </ul>
 *
 * <p>URLs and prefixes are compared parsed and normalised: scheme, host (in any case, without a
 * trailing dot), port (the scheme's default when none is written) and path, whose dot segments are
 * removed first; a prefix's path ends at a segment boundary, so {@code http://a.b/x} admits {@code
 * /x} and {@code /x/…} but not {@code /xy}, and {@code http://a.b/} never admits the host {@code
 * a.b.evil}. A URL with user information is refused before any of this.
 */
public final class ArtifactUrlPolicy {
  /** Any URL except those of loopback, link-local and metadata addresses. */
  public static final ArtifactUrlPolicy DEFAULT = new ArtifactUrlPolicy(List.of(), false);

  private final List<ArtifactUrl> prefixes;
  private final boolean listedOnly;

  private ArtifactUrlPolicy(List<ArtifactUrl> prefixes, boolean listedOnly) {
    this.prefixes = prefixes;
    this.listedOnly = listedOnly;
  }

  /**
   * @param allowPrefixes the URL prefixes allowed, {@code http(s)://host[:port][/path]}
   * @param listedOnly refuse URLs under no prefix also when there is none
   * @throws IllegalArgumentException naming a prefix that is not such a URL
   */
  public static ArtifactUrlPolicy of(List<String> allowPrefixes, boolean listedOnly) {
    List<ArtifactUrl> parsed =
        allowPrefixes.stream()
            .map(String::strip)
            .filter(p -> !p.isEmpty())
            .map(ArtifactUrlPolicy::prefix)
            .toList();
    return new ArtifactUrlPolicy(parsed, listedOnly);
  }

  private static ArtifactUrl prefix(String text) {
    try {
      ArtifactUrl url = ArtifactUrl.parse(text);
      if (url.query() != null || URI.create(text).getRawFragment() != null) {
        throw new IllegalArgumentException("it has a query or fragment");
      }
      return url;
    } catch (SourceException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--artifact-url-allow-prefix '"
              + text
              + "' is not an http(s)://host[:port][/path] URL without credentials, query or"
              + " fragment");
    }
  }

  /** The prefixes allowed, normalised. */
  public List<String> prefixes() {
    return prefixes.stream().map(ArtifactUrl::toString).toList();
  }

  public boolean listedOnly() {
    return listedOnly;
  }

  /**
   * The URL to request for {@code text}, when this policy allows it.
   *
   * @throws SourceException {@link FailureReason#INVALID_URL}: not an http(s) URL, or one this
   *     policy refuses (one message for every refusal, which says nothing of the address)
   * @throws UnknownHostException when the host of a URL that must be resolved is not found
   */
  URI check(String text, Resolver resolver) throws UnknownHostException {
    ArtifactUrl url = ArtifactUrl.parse(text);
    if (prefixes.stream().anyMatch(p -> p.admits(url))) {
      return url.uri();
    }
    if (listedOnly || !prefixes.isEmpty()) {
      throw refused();
    }
    for (InetAddress address : resolver.resolve(url.host())) {
      if (Addresses.refused(address)) {
        throw refused();
      }
    }
    return url.uri();
  }

  static SourceException refused() {
    return new SourceException(
        FailureReason.INVALID_URL,
        "the artifact's URL is not one the engine may download from (capstan run"
            + " --artifact-url-allow-prefix)");
  }

  @Override
  public String toString() {
    return prefixes.isEmpty()
        ? (listedOnly ? "no URL" : "any URL but loopback, link-local and metadata addresses")
        : "URLs under " + prefixes();
  }

  /** How a host name becomes addresses: the system's resolver, or a test's. */
  @FunctionalInterface
  interface Resolver {
    Resolver SYSTEM = InetAddress::getAllByName;

    InetAddress[] resolve(String host) throws UnknownHostException;
  }
}
