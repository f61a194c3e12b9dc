package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.util.regex.Pattern;

/**
 * An OCI repository named as {@code oci://<host>[:<port>]/<name>}: the registry's address and the
 * repository's name, checked against the distribution specification's grammar before anything is
 * sent, so that nothing of the URL can reach a path or header it was not meant for.
 *
 * @param registry {@code host} or {@code host:port}
 * @param repository the repository name, e.g. {@code org/app}
 */
public record OciUrl(String registry, String repository) {

  static final String PREFIX = "oci://";

  private static final Pattern HOST =
      Pattern.compile(
          "(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
              + "(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*"
              + "|\\[[0-9a-fA-F:.]+\\])(?::[0-9]{1,5})?");

  private static final Pattern NAME =
      Pattern.compile(
          "[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*)*");

  /** The grammar of a tag in the distribution specification. */
  static final Pattern TAG = Pattern.compile("[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}");

  /** A sha256 digest, the only algorithm accepted. */
  static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");

  /**
   * Parses a repository URL without a tag or digest.
   *
   * @throws SourceException {@link FailureReason#INVALID_URL} naming what is wrong
   */
  public static OciUrl parse(String url) {
    if (url == null || !url.startsWith(PREFIX)) {
      throw invalid("the URL must be of the form oci://<host>[:<port>]/<name>");
    }
    String rest = url.substring(PREFIX.length());
    int slash = rest.indexOf('/');
    if (slash <= 0 || slash == rest.length() - 1) {
      throw invalid("the URL must name a registry host and a repository: oci://<host>/<name>");
    }
    String host = rest.substring(0, slash);
    String name = rest.substring(slash + 1);
    if (host.contains("@")) {
      throw invalid("the URL must not hold credentials; use spec.secretRef");
    }
    if (!HOST.matcher(host).matches()) {
      throw invalid("the registry host of the URL is not a valid host name");
    }
    if (name.contains("@")) {
      throw invalid("the URL must not name a digest; use spec.ref.digest");
    }
    if (name.contains(":")) {
      throw invalid("the URL must not name a tag; use spec.ref.tag");
    }
    if (name.length() > 255 || !NAME.matcher(name).matches()) {
      throw invalid(
          "the repository name of the URL is not valid (lower-case letters, digits and "
              + "separators, components separated by '/')");
    }
    return new OciUrl(host, name);
  }

  /** Splits {@code oci://host/name:tag} (as the push command takes it) into URL and tag. */
  public static Tagged parseTagged(String url) {
    if (url == null) {
      throw invalid("no URL given");
    }
    int lastSlash = url.lastIndexOf('/');
    int colon = url.indexOf(':', Math.max(lastSlash, PREFIX.length()));
    if (lastSlash < PREFIX.length() || colon < 0) {
      throw invalid("the URL must name a tag: oci://<host>/<name>:<tag>");
    }
    String tag = url.substring(colon + 1);
    if (!TAG.matcher(tag).matches()) {
      throw invalid("'" + tag + "' is not a valid tag");
    }
    return new Tagged(parse(url.substring(0, colon)), tag);
  }

  /** A repository and a tag. */
  public record Tagged(OciUrl url, String tag) {}

  /** The registry's host name or address, without its port or an IPv6 address's brackets. */
  String host() {
    if (registry.startsWith("[")) {
      return registry.substring(1, registry.indexOf(']'));
    }
    int colon = registry.lastIndexOf(':');
    return colon < 0 ? registry : registry.substring(0, colon);
  }

  /** The URL as written, {@code oci://registry/repository}. */
  public String display() {
    return PREFIX + registry + "/" + repository;
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_URL, message);
  }
}
