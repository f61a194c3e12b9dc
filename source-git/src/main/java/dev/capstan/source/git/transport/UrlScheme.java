package dev.capstan.source.git.transport;

import dev.capstan.source.core.SourceException;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The forms of remote URL a fetch can be given. Which of them a {@code GitSource} accepts is the
 * caller's policy ({@code GitSourceOptions.allowedSchemes()}): a GitRepository object admits only
 * the remote ones, while a user's own shell may also name local repositories.
 */
public enum UrlScheme {
  HTTPS("https://"),
  HTTP("http://"),
  SSH("ssh://"),
  /** {@code user@host:path}, SSH without a scheme. */
  SCP_LIKE("user@host:path"),
  GIT("git://"),
  FILE("file://");

  private final String example;

  UrlScheme(String example) {
    this.example = example;
  }

  /**
   * What a GitRepository may name, as Flux's GitRepository admits ({@code ^(http|https|ssh)://}):
   * never a path on the engine's own disk, where other tenants' clones live.
   */
  public static Set<UrlScheme> gitRepository() {
    return EnumSet.of(HTTPS, HTTP, SSH);
  }

  /** Every form, local ones included: for a user fetching on their own machine. */
  public static Set<UrlScheme> all() {
    return EnumSet.allOf(UrlScheme.class);
  }

  /**
   * Why a fetch of {@code url} would be refused under {@code allowed}, in the fetch's own words
   * (user information removed); empty when its form is allowed. Nothing is read or fetched: for
   * callers that must refuse before they read anything else for the URL (its Secrets, say).
   */
  public static Optional<String> refusal(String url, Set<UrlScheme> allowed) {
    try {
      RemoteUrl.parse(url, allowed);
      return Optional.empty();
    } catch (SourceException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** E.g. {@code https://, ssh://}, for messages naming what is allowed. */
  static String describe(Set<UrlScheme> schemes) {
    return schemes.stream().map(s -> s.example).collect(Collectors.joining(", "));
  }
}
