package dev.capstan.source.git.transport;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.core.SourceException;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jgit.transport.URIish;

/** A validated remote URL: its scheme and the form handed to JGit. */
public record RemoteUrl(String url, UrlScheme scheme, URIish uri) {

  /**
   * Parses {@code text} or throws a {@link SourceException} naming what is wrong; a URL whose
   * scheme is not in {@code allowed} is refused before anything is read or fetched.
   */
  public static RemoteUrl parse(String text, Set<UrlScheme> allowed) {
    String url = text == null ? "" : text.strip();
    if (url.isEmpty()) {
      throw new SourceException(FailureReason.INVALID_URL, "the URL is empty");
    }
    if (url.chars().anyMatch(Character::isISOControl)) {
      throw invalid(url, "it contains a control character");
    }
    URIish uri;
    try {
      uri = new URIish(url);
    } catch (URISyntaxException e) {
      throw invalid(url, "it is not a valid URL");
    }
    UrlScheme scheme = schemeOf(url, uri, allowed);
    if (!allowed.contains(scheme)) {
      throw invalid(
          url,
          (scheme == UrlScheme.SCP_LIKE
                  ? "scp-like URLs are not allowed here"
                  : "scheme '" + scheme.name().toLowerCase(Locale.ROOT) + "' is not allowed here")
              + " (use "
              + UrlScheme.describe(allowed)
              + ")");
    }
    if (scheme != UrlScheme.FILE && (uri.getHost() == null || uri.getHost().isEmpty())) {
      throw invalid(url, "it names no host");
    }
    if (uri.getPath() == null || uri.getPath().isEmpty() || "/".equals(uri.getPath())) {
      throw invalid(url, "it names no repository path");
    }
    return new RemoteUrl(url, scheme, uri);
  }

  private static UrlScheme schemeOf(String url, URIish uri, Set<UrlScheme> allowed) {
    String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme == null) {
      // scp-like "user@host:path" has a host but no scheme; a bare local path has neither.
      if (uri.getHost() == null || uri.getHost().isEmpty()) {
        throw invalid(
            url,
            allowed.contains(UrlScheme.FILE)
                ? "a local path needs the file:// scheme"
                : "a local path is not allowed here (use " + UrlScheme.describe(allowed) + ")");
      }
      return UrlScheme.SCP_LIKE;
    }
    return switch (scheme) {
      case "https" -> UrlScheme.HTTPS;
      case "http" -> UrlScheme.HTTP;
      case "ssh" -> UrlScheme.SSH;
      case "git" -> UrlScheme.GIT;
      case "file" -> UrlScheme.FILE;
      // The scheme is letters, digits and "+.-" (URIish's syntax): safe to name.
      default ->
          throw invalid(
              url,
              "scheme '" + scheme + "' is not supported (use " + UrlScheme.describe(allowed) + ")");
    };
  }

  boolean isSsh() {
    return scheme == UrlScheme.SSH || scheme == UrlScheme.SCP_LIKE;
  }

  public boolean isHttp() {
    return scheme == UrlScheme.HTTP || scheme == UrlScheme.HTTPS;
  }

  /** The URL handed to JGit: SSH without a user logs in as {@code git}, not as the local user. */
  public String transportUrl() {
    if (isSsh() && (uri.getUser() == null || uri.getUser().isEmpty())) {
      return uri.setUser("git").toPrivateString();
    }
    return url;
  }

  /** The URL without user information, for messages. */
  public String display() {
    return Redaction.scrubUrl(url);
  }

  private static SourceException invalid(String url, String why) {
    return new SourceException(
        FailureReason.INVALID_URL, "invalid URL '" + Redaction.scrubUrl(url) + "': " + why);
  }
}
