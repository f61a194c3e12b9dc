package dev.capstan.source;

import java.net.URISyntaxException;
import java.util.Locale;
import org.eclipse.jgit.transport.URIish;

/** A validated remote URL: its transport kind and the form handed to JGit. */
record RemoteUrl(String url, Kind kind, URIish uri) {

  enum Kind {
    HTTP,
    SSH,
    GIT,
    FILE
  }

  /** Parses {@code text} or throws a {@link SourceException} naming what is wrong. */
  static RemoteUrl parse(String text) {
    String url = text == null ? "" : text.trim();
    if (url.isEmpty()) {
      throw new SourceException(FailureReason.INVALID_URL, "the URL is empty");
    }
    URIish uri;
    try {
      uri = new URIish(url);
    } catch (URISyntaxException e) {
      throw invalid(url, "it is not a valid URL");
    }
    String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
    Kind kind;
    if (scheme == null) {
      // scp-like "user@host:path" has a host but no scheme; a bare local path has neither.
      if (uri.getHost() == null || uri.getHost().isEmpty()) {
        throw invalid(url, "a local path needs the file:// scheme");
      }
      kind = Kind.SSH;
    } else {
      kind = switch (scheme) {
        case "http", "https" -> Kind.HTTP;
        case "ssh", "git+ssh", "ssh+git" -> Kind.SSH;
        case "git" -> Kind.GIT;
        case "file" -> Kind.FILE;
        default -> throw invalid(url, "scheme '" + scheme
            + "' is not supported (use https, http, ssh, git or file)");
      };
    }
    if (kind != Kind.FILE && (uri.getHost() == null || uri.getHost().isEmpty())) {
      throw invalid(url, "it names no host");
    }
    if (uri.getPath() == null || uri.getPath().isEmpty() || "/".equals(uri.getPath())) {
      throw invalid(url, "it names no repository path");
    }
    return new RemoteUrl(url, kind, uri);
  }

  /** The URL handed to JGit: SSH without a user logs in as {@code git}, not as the local user. */
  String transportUrl() {
    if (kind == Kind.SSH && (uri.getUser() == null || uri.getUser().isEmpty())) {
      return uri.setUser("git").toPrivateString();
    }
    return url;
  }

  /** The URL without user information, for messages. */
  String display() {
    return Redaction.scrubUrl(url);
  }

  private static SourceException invalid(String url, String why) {
    return new SourceException(
        FailureReason.INVALID_URL, "invalid URL '" + Redaction.scrubUrl(url) + "': " + why);
  }
}
